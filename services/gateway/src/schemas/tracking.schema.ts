import { z } from './zod-openapi';

/** The tracking keys of §2, in the spec's order. */
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

const trackingValue = z.string().max(500).optional();

export const TrackingSchema = z
  .object(Object.fromEntries(TRACKING_KEYS.map((key) => [key, trackingValue])) as Record<TrackingKey, typeof trackingValue>)
  .strict()
  .openapi('Tracking', {
    description: 'UTMs e identificadores de clique, guardados como enviados (cada valor com até 500 caracteres).',
    example: { utm_source: 'facebook', utm_campaign: 'black_friday', fbclid: 'IwAR0abc' },
  });
