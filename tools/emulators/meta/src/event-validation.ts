/**
 * The checks the Conversions API makes on `data[]` (ad-integrations.md §2; Meta's parameter and
 * troubleshooting pages): one bad event fails the whole request with Meta's error body.
 */
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** `fb.<subdomain index>.<creation ms>.<fbclid>` and `fb.<index>.<ms>.<random number>`. */
const FBC = /^fb\.[0-2]\.\d{13}\.\S+$/;
const FBP = /^fb\.[0-2]\.\d{13}\.\d+$/;

export const ACTION_SOURCES = ['email', 'website', 'app', 'phone_call', 'chat', 'physical_store', 'system_generated', 'business_messaging', 'other'] as const;

/** Events may be at most 7 days old, and a little ahead of the clock (skew). */
export const MAX_AGE_S = 7 * 86_400;
export const MAX_AHEAD_S = 60;

/** Hashed user_data fields: SHA-256 hex, lowercase (a single string or an array of them). */
const HASHED_FIELDS = ['em', 'ph', 'fn', 'ln', 'db', 'ge', 'ct', 'st', 'zp', 'country'] as const;
/** What Meta can match a person on: at least one must be present. */
const MATCH_KEYS = ['em', 'ph', 'external_id', 'fbc', 'fbp', 'client_ip_address', 'client_user_agent', 'fb_login_id', 'madid', 'anon_id'] as const;

export interface EventProblem {
  subcode: number;
  title: string;
  message: string;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const param = (index: number, path: string) => `$['data'][${index}]${path}`;

const invalid = (index: number, path: string, what: string): EventProblem => ({
  subcode: 2804019,
  title: 'Server-side API parameter error',
  message: `The parameter ${param(index, path)} ${what}.`,
});

/** The first problem of an event, or null when Meta takes it. `nowS`: the emulator's clock in unix seconds. */
export function checkEvent(event: unknown, index: number, nowS: number): EventProblem | null {
  if (!isObject(event)) return invalid(index, '', 'must be an object');
  if (typeof event['event_name'] !== 'string' || event['event_name'].trim() === '') return invalid(index, "['event_name']", 'is required');
  const time = event['event_time'];
  if (!Number.isInteger(time)) return invalid(index, "['event_time']", 'is required and must be an integer unix timestamp in seconds');
  if ((time as number) < nowS - MAX_AGE_S)
    return {
      subcode: 2804003,
      title: 'Event Timestamp Too Old',
      message: `The timestamp for this event is too far in the past. Events need to be sent from your server within 7 days of when they occurred. Enter a timestamp that has occurred within the last 7 days.`,
    };
  if ((time as number) > nowS + MAX_AHEAD_S) return { subcode: 2804004, title: 'Event Timestamp In Future', message: 'The timestamp for this event is in the future. Enter a timestamp that has already occurred.' };
  if (typeof event['event_id'] !== 'string' || event['event_id'].trim() === '') return invalid(index, "['event_id']", 'is required (the emulator asks for it: it is how purchases are deduplicated)');
  const source = event['action_source'];
  if (!(ACTION_SOURCES as readonly unknown[]).includes(source)) return invalid(index, "['action_source']", `must be one of ${ACTION_SOURCES.join(', ')}`);

  const user = event['user_data'];
  if (!isObject(user)) return invalid(index, "['user_data']", 'is required');
  if (source === 'website') {
    const url = event['event_source_url'];
    if (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url)) return invalid(index, "['event_source_url']", 'is required for website events and must be a URL');
    if (typeof user['client_user_agent'] !== 'string' || user['client_user_agent'].trim() === '') return invalid(index, "['user_data']['client_user_agent']", 'is required for website events');
  }
  for (const field of HASHED_FIELDS) {
    const value = user[field];
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    if (values.length === 0 || !values.every((v) => typeof v === 'string' && SHA256_HEX.test(v)))
      return invalid(index, `['user_data']['${field}']`, 'must be SHA-256 hashed: 64 lowercase hexadecimal characters (a string or an array of them)');
  }
  if (user['external_id'] !== undefined) {
    const values = Array.isArray(user['external_id']) ? user['external_id'] : [user['external_id']];
    if (values.length === 0 || !values.every((v) => typeof v === 'string' && v.length > 0)) return invalid(index, "['user_data']['external_id']", 'must be a string or an array of strings');
  }
  if (user['fbc'] !== undefined && (typeof user['fbc'] !== 'string' || !FBC.test(user['fbc']))) return invalid(index, "['user_data']['fbc']", 'must look like fb.1.<creation time in ms>.<fbclid>');
  if (user['fbp'] !== undefined && (typeof user['fbp'] !== 'string' || !FBP.test(user['fbp']))) return invalid(index, "['user_data']['fbp']", 'must look like fb.1.<creation time in ms>.<random number>');
  if (user['client_ip_address'] !== undefined && (typeof user['client_ip_address'] !== 'string' || SHA256_HEX.test(user['client_ip_address'])))
    return invalid(index, "['user_data']['client_ip_address']", 'must be the IP address as is (never hashed)');
  if (!MATCH_KEYS.some((key) => user[key] !== undefined))
    return { subcode: 2804050, title: 'Invalid Customer Information Parameters', message: 'The event has no customer information parameter to match on (em, ph, external_id, fbc, fbp, client IP and user agent…).' };

  const custom = event['custom_data'];
  if (custom !== undefined && !isObject(custom)) return invalid(index, "['custom_data']", 'must be an object');
  const isPurchase = event['event_name'] === 'Purchase';
  if (isPurchase || (isObject(custom) && (custom['value'] !== undefined || custom['currency'] !== undefined))) {
    const data = isObject(custom) ? custom : {};
    if (typeof data['value'] !== 'number' || !Number.isFinite(data['value']) || data['value'] < 0) return invalid(index, "['custom_data']['value']", 'must be a number ≥ 0 (required for Purchase)');
    if (typeof data['currency'] !== 'string' || !/^[A-Za-z]{3}$/.test(data['currency'])) return invalid(index, "['custom_data']['currency']", 'must be a 3-letter ISO 4217 code (required for Purchase)');
  }
  return null;
}
