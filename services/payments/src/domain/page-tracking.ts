import { isTrackingKey, MAX_TRACKING_VALUE, TRACKING_KEYS } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';


/**
 * The tracking a payment page brought, checked again here although the gateway already filters
 * it: this service owns what a payment stores, and a page call is public input. Empty values are
 * dropped (an address like `?utm_source=` brings nothing to fill a key with).
 */
export function pageTrackingOf(tracking: Record<string, string>): Record<string, string> {
  const checked: Record<string, string> = {};
  for (const [key, value] of Object.entries(tracking)) {
    if (!isTrackingKey(key) || typeof value !== 'string' || value.length > MAX_TRACKING_VALUE) {
      throw new AppError('parameter_invalid', {
        param: 'tracking',
        message: `Use em tracking apenas as chaves ${TRACKING_KEYS.join(', ')}, cada uma com até ${MAX_TRACKING_VALUE} caracteres.`,
      });
    }
    if (value !== '') checked[key] = value;
  }
  return checked;
}
