import { AppError } from '@orquestra/platform';

/** The tracking keys of spec §2: the only ones a payment stores. */
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

/** Spec §2 and the limits table: each tracking value is at most 500 characters. */
export const MAX_TRACKING_VALUE = 500;

const KNOWN: ReadonlySet<string> = new Set(TRACKING_KEYS);

/**
 * The tracking a payment page brought, checked again here although the gateway already filters
 * it: this service owns what a payment stores, and a page call is public input. Empty values are
 * dropped (an address like `?utm_source=` brings nothing to fill a key with).
 */
export function pageTrackingOf(tracking: Record<string, string>): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [key, value] of Object.entries(tracking)) {
    if (!KNOWN.has(key) || typeof value !== 'string' || value.length > MAX_TRACKING_VALUE) {
      throw new AppError('parameter_invalid', {
        param: 'tracking',
        message: `Use em tracking apenas as chaves ${TRACKING_KEYS.join(', ')}, cada uma com até ${MAX_TRACKING_VALUE} caracteres.`,
      });
    }
    if (value !== '') checked[key] = value;
  }
  return checked;
}
