import { readFileSync } from 'node:fs';
import type { ProvidersConfig } from '../config';
import { providerDefinition } from '../domain/provider-catalog';
import { EfiAdapter } from './efi/efi.adapter';
import { assertUsableEfiCertificate } from './efi/efi-certificate.check';
import type { HttpExchangeObserver } from './http/provider-http';
import type { AdapterContext, ProviderAdapter } from './provider-adapter';

export interface AdapterAccount {
  id: string;
  provider: string;
  mode: 'test' | 'live';
  credentials: Record<string, string>;
  webhookSecret: string;
  webhookUrl: string;
  signingSecret?: string;
}

/** Splits a PEM bundle into its certificate chain and its private key. */
export function splitPemBundle(pem: string): { certificatePem: string; privateKeyPem: string } {
  const certificates = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  const key = pem.match(/-----BEGIN (?:RSA |EC )?PRIVATE KEY-----[\s\S]+?-----END (?:RSA |EC )?PRIVATE KEY-----/);
  return { certificatePem: certificates.join('\n'), privateKeyPem: key?.[0] ?? '' };
}

type AdapterConstructor = new (context: AdapterContext) => ProviderAdapter;

/** Adapters built from the uniform AdapterContext (every provider but Efí, whose mTLS needs more). */
const CONTEXT_ADAPTERS: Record<string, AdapterConstructor> = {};

/** Registers an adapter class for a provider code (called by adapters/index.ts). */
export function registerAdapter(code: string, constructor: AdapterConstructor): void {
  CONTEXT_ADAPTERS[code] = constructor;
}

/**
 * Builds the adapter for one connected account. Base URLs depend on the account's mode (sandbox
 * for test, production for live) and can be overridden by config (the emulators in development).
 */
export function createAdapterFactory(config: ProvidersConfig, observe?: HttpExchangeObserver): (account: AdapterAccount) => ProviderAdapter {
  const extraCa = config.PROVIDER_EXTRA_CA_FILE ? readFileSync(config.PROVIDER_EXTRA_CA_FILE, 'utf8') : undefined;
  return (account) => {
    const definition = providerDefinition(account.provider);
    if (!definition) throw new Error(`No provider ${account.provider} in the catalog`);
    const baseUrl = config.PROVIDER_ENDPOINTS[account.provider]?.[account.mode] ?? definition.baseUrls[account.mode];
    if (account.provider === 'efi') {
      const { certificatePem, privateKeyPem } = splitPemBundle(account.credentials.certificate ?? '');
      assertUsableEfiCertificate(certificatePem, privateKeyPem);
      return new EfiAdapter({
        baseUrl,
        clientId: account.credentials.client_id ?? '',
        clientSecret: account.credentials.client_secret ?? '',
        certificatePem,
        privateKeyPem,
        caPem: extraCa,
        chave: account.credentials.pix_key ?? '',
        timeoutMs: config.PROVIDER_TIMEOUT_MS,
        webhookSecret: account.webhookSecret,
        // Boletos (API Cobranças) name our intake URL per charge.
        webhookUrl: account.webhookUrl,
        ...(observe ? { observe } : {}),
      });
    }
    const Adapter = CONTEXT_ADAPTERS[account.provider];
    if (!Adapter) throw new Error(`No adapter for provider ${account.provider}`);
    return new Adapter({
      baseUrl,
      credentials: account.credentials,
      webhookUrl: account.webhookUrl,
      webhookSecret: account.webhookSecret,
      ...(account.signingSecret ? { signingSecret: account.signingSecret } : {}),
      ...(extraCa ? { caPem: extraCa } : {}),
      settings: config.PROVIDER_SETTINGS[account.provider] ?? {},
      timeoutMs: config.PROVIDER_TIMEOUT_MS,
      ...(observe ? { observe } : {}),
    });
  };
}
