import { MAX_TRACKING_VALUE, TRACKING_KEYS, type TrackingKey } from '@orquestra/contracts';
import { z } from './zod-openapi';

export { TRACKING_KEYS, type TrackingKey } from '@orquestra/contracts';

const trackingValue = z.string().max(MAX_TRACKING_VALUE).optional();

export const TrackingSchema = z
  .object(Object.fromEntries(TRACKING_KEYS.map((key) => [key, trackingValue])) as Record<TrackingKey, typeof trackingValue>)
  .strict()
  .openapi('Tracking', {
    description: 'UTMs e identificadores de clique, guardados como enviados (cada valor com até 500 caracteres).',
    example: { utm_source: 'facebook', utm_campaign: 'black_friday', fbclid: 'IwAR0abc' },
  });
