import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';

/**
 * The TLS settings of one provider connection pool, built once. Handing `ca`/`cert`/`key` to
 * undici's `connect` makes Node build a new secure context for every connection, parsing Node's
 * ~140 root certificates each time (measured: 3.8 s of the providers service's CPU in a bench run
 * of ~1 000 payments, ~4 ms per payment); a pool given one `secureContext` pays that once.
 */
export interface ProviderTlsOptions {
  /** An extra CA (a sandbox's or emulator's), added to Node's roots, never replacing them. */
  caPem?: string | undefined;
  /** The account's client certificate and key, for providers that require mTLS (Efí). */
  certificatePem?: string | undefined;
  privateKeyPem?: string | undefined;
}

/** Contexts without a client identity depend only on the CA: every account shares one. */
const shared = new Map<string, SecureContext>();

/**
 * The `connect` options of an undici Agent for these TLS settings: a prebuilt secure context, or
 * nothing when Node's defaults (its roots, no client certificate) already apply.
 */
export function tlsConnectOptions(options: ProviderTlsOptions): { secureContext?: SecureContext } {
  const identity = options.certificatePem && options.privateKeyPem ? { cert: options.certificatePem, key: options.privateKeyPem } : undefined;
  if (!options.caPem && !identity) return {};
  const ca = options.caPem ? [...rootCertificates, options.caPem] : undefined;
  if (identity) return { secureContext: createSecureContext({ ...identity, ...(ca ? { ca } : {}) }) };
  const key = options.caPem ?? '';
  let context = shared.get(key);
  if (!context) {
    context = createSecureContext({ ca });
    shared.set(key, context);
  }
  return { secureContext: context };
}
