/**
 * The checks of TikTok's Events API 2.0 on a track body (ad-integrations.md §3, Segment's TikTok
 * Conversions destination): the first problem is the answer's message, with code 40002.
 */
const SHA256_HEX = /^[0-9a-f]{64}$/;
export const EVENT_SOURCES = ['web', 'app', 'offline', 'crm'] as const;
/** Web events at most 7 days old (as Meta; TikTok's own limit is not confirmed), a little ahead for skew. */
export const MAX_AGE_S = 7 * 86_400;
export const MAX_AHEAD_S = 60;
const VALUE_EVENTS = ['Purchase', 'CompletePayment', 'PlaceAnOrder'];

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const nonEmpty = (value: unknown): value is string => typeof value === 'string' && value.trim().length > 0;

/** The first problem of the body (a message naming the field), or null when TikTok takes it. */
export function checkTrackBody(body: unknown, nowS: number): string | null {
  if (!isObject(body)) return 'body: must be a JSON object';
  if (!(EVENT_SOURCES as readonly unknown[]).includes(body['event_source'])) return `event_source: must be one of ${EVENT_SOURCES.join(', ')}`;
  if (!nonEmpty(body['event_source_id'])) return 'event_source_id: is required (the pixel code)';
  if (body['test_event_code'] !== undefined && !nonEmpty(body['test_event_code'])) return 'test_event_code: must be a non-empty string';
  const data = body['data'];
  if (!Array.isArray(data) || data.length === 0) return 'data: must be a non-empty array';
  if (data.length > 1000) return 'data: at most 1000 events';
  for (const [i, event] of data.entries()) {
    const at = `data[${i}]`;
    if (!isObject(event)) return `${at}: must be an object`;
    if (!nonEmpty(event['event'])) return `${at}.event: is required`;
    const time = event['event_time'];
    if (!Number.isInteger(time)) return `${at}.event_time: must be an integer unix timestamp in seconds`;
    if ((time as number) < nowS - MAX_AGE_S) return `${at}.event_time: the event is more than 7 days old`;
    if ((time as number) > nowS + MAX_AHEAD_S) return `${at}.event_time: the event is in the future`;
    if (!nonEmpty(event['event_id'])) return `${at}.event_id: is required (the emulator asks for it: it is how purchases are deduplicated)`;
    const user = event['user'];
    if (!isObject(user)) return `${at}.user: is required`;
    for (const field of ['email', 'phone']) {
      const value = user[field];
      if (value === undefined) continue;
      const values = Array.isArray(value) ? value : [value];
      if (values.length === 0 || !values.every((v) => typeof v === 'string' && SHA256_HEX.test(v))) return `${at}.user.${field}: must be SHA-256 hashed (64 lowercase hexadecimal characters), a string or an array of them`;
    }
    if (user['external_id'] !== undefined) {
      const values = Array.isArray(user['external_id']) ? user['external_id'] : [user['external_id']];
      if (values.length === 0 || !values.every(nonEmpty)) return `${at}.user.external_id: must be a string or an array of strings`;
    }
    for (const field of ['ttclid', 'ttp', 'user_agent', 'locale']) if (user[field] !== undefined && !nonEmpty(user[field])) return `${at}.user.${field}: must be a non-empty string`;
    if (user['ip'] !== undefined && (!nonEmpty(user['ip']) || SHA256_HEX.test(user['ip']))) return `${at}.user.ip: must be the IP address as is (never hashed)`;
    const properties = event['properties'];
    if (properties !== undefined && !isObject(properties)) return `${at}.properties: must be an object`;
    const props = isObject(properties) ? properties : {};
    if (VALUE_EVENTS.includes(event['event'] as string) || props['value'] !== undefined) {
      if (typeof props['value'] !== 'number' || !Number.isFinite(props['value']) || props['value'] < 0) return `${at}.properties.value: must be a number ≥ 0`;
      if (typeof props['currency'] !== 'string' || !/^[A-Z]{3}$/.test(props['currency'])) return `${at}.properties.currency: must be a 3-letter ISO 4217 code`;
    }
    const page = event['page'];
    if (page !== undefined) {
      if (!isObject(page)) return `${at}.page: must be an object`;
      if (page['url'] !== undefined && (typeof page['url'] !== 'string' || !/^https?:\/\/\S+$/.test(page['url']))) return `${at}.page.url: must be a URL`;
    }
  }
  return null;
}
