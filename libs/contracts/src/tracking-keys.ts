/**
 * The tracking keys of spec §2 (UTMs and click identifiers), in the spec's order: the only keys a
 * payment or subscription stores, the payment page captures and the merchant-site script keeps.
 * One list for the gateway, payments and tracking.
 */
export const TRACKING_KEYS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_content',
  'utm_term',
  'src',
  'sck',
  'fbclid',
  'gclid',
  'ttclid',
  'fbp',
  'fbc',
  'ttp',
] as const;

export type TrackingKey = (typeof TRACKING_KEYS)[number];

/** Spec §2 and the limits table: each tracking value is at most 500 characters. */
export const MAX_TRACKING_VALUE = 500;

const KNOWN: ReadonlySet<string> = new Set(TRACKING_KEYS);

export function isTrackingKey(key: string): key is TrackingKey {
  return KNOWN.has(key);
}
