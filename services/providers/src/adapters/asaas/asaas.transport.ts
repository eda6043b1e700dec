/** Classifying a failure that got no HTTP answer from Asaas. */
import { ProviderError } from '../provider-adapter';

/**
 * What the request was: `lookup` = the reads and customer upsert a create does before it posts
 * the charge (nothing chargeable exists yet); `create` = `POST /payments`; `read`; `write`.
 */
export type Operation = 'lookup' | 'create' | 'read' | 'write';

const CONNECT_PHASE_CODES = new Set([
  'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT',
  'CERT_HAS_EXPIRED', 'DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY', 'ERR_TLS_CERT_ALTNAME_INVALID', 'EPROTO',
]);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED']);
const TIMEOUT_CODES = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

function transportCode(err: unknown): string {
  const e = err as { code?: unknown; cause?: { code?: unknown }; errors?: { code?: unknown }[] };
  const code = e.code ?? e.cause?.code ?? e.errors?.[0]?.code;
  return typeof code === 'string' ? code : 'UNKNOWN';
}

/**
 * Refused connections, DNS, TLS failures and resets mean Asaas did not act: "not created". That
 * stays safe even if a reset hid a created charge: nobody has its QR code, and a repeat with the
 * same key finds it by `externalReference`. No answer within the timeout on `POST /payments` (or a
 * write) is "ambiguous": the caller repeats with the same key, which searches before creating.
 * Lookups and reads create nothing, so they are never ambiguous.
 */
export function classifyTransportError(err: unknown, operation: Operation): ProviderError {
  const code = transportCode(err);
  const what = `asaas ${operation}: ${code}`;
  const mayHaveActed = operation === 'create' || operation === 'write';
  if (CONNECT_PHASE_CODES.has(code) || code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || RESET_CODES.has(code)) {
    return new ProviderError('not_created', 'provider_unavailable', what);
  }
  if (TIMEOUT_CODES.has(code)) return new ProviderError(mayHaveActed ? 'ambiguous' : 'not_created', 'provider_timeout', what);
  return new ProviderError(mayHaveActed ? 'ambiguous' : 'not_created', 'provider_error', what);
}
