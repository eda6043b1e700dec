import type { PageParams } from './common.types';

export interface Event<T = Record<string, unknown>> {
  id: string;
  object: 'event';
  /** `<resource>.<action>`, e.g. payment.succeeded. */
  type: string;
  /** Unix seconds. */
  created: number;
  data: { object: T | null };
}

export interface ListEventsParams extends PageParams {
  /** A type (payment.succeeded), a prefix (payment.*) or *. */
  type?: string;
  'created[gte]'?: number;
  'created[lte]'?: number;
  payment_id?: string;
  resource_id?: string;
}
