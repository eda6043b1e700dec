// Shapes shared by every resource. Hand-written to mirror the gateway's OpenAPI document (the SDK
// may not import service code); `schema-keys.ts` lists every field so a test can hold these types
// against the live document.

export type Mode = 'test' | 'live';
export type PaymentMethod = 'pix' | 'card' | 'boleto';

/** A page of a list: `data` newest first; pass the last id as `starting_after` for the next page. */
export interface List<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
}

/** `limit` 1…100 (default 10) and the `starting_after` cursor (an id). */
export interface PageParams {
  limit?: number;
  starting_after?: string;
}

export interface Deleted {
  id: string;
  object: string;
  deleted: true;
}

/** Metadata: up to 50 keys of ≤ 40 characters, string values of ≤ 500 characters. */
export type Metadata = Record<string, string>;
