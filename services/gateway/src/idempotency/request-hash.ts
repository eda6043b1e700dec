import { createHash } from 'node:crypto';

/**
 * JSON text with object keys sorted at every depth, so two bodies that differ only in key order
 * (or in absent-vs-undefined fields) have the same text. Arrays keep their order: it is meaning.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item === undefined ? null : item)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .filter((key) => (value as Record<string, unknown>)[key] !== undefined)
      .map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * SHA-256 (hex) of the canonical JSON of a validated request body. The payments service stores it
 * with the Idempotency-Key: the same key with a different hash is `idempotency_conflict`.
 */
export function requestHash(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}
