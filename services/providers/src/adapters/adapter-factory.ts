import { readFileSync } from 'node:fs';
import type { ProvidersConfig } from '../config';
import { EfiAdapter } from './efi/efi.adapter';
import type { ProviderAdapter } from './provider-adapter';

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

/**
 * Builds the adapter for one connected account. Base URLs depend on the account's mode (sandbox
 * for test, production for live); in development the test URLs point at `tools/emulators`.
 */
export function createAdapterFactory(config: ProvidersConfig): (account: AdapterAccount) => ProviderAdapter {
  const extraCa = config.PROVIDER_EXTRA_CA_FILE ? readFileSync(config.PROVIDER_EXTRA_CA_FILE, 'utf8') : undefined;
  return (account) => {
    switch (account.provider) {
      case 'efi': {
        const { certificatePem, privateKeyPem } = splitPemBundle(account.credentials.certificate ?? '');
        return new EfiAdapter({
          baseUrl: account.mode === 'live' ? config.EFI_PIX_BASE_URL_LIVE : config.EFI_PIX_BASE_URL_TEST,
          clientId: account.credentials.client_id ?? '',
          clientSecret: account.credentials.client_secret ?? '',
          certificatePem,
          privateKeyPem,
          caPem: extraCa,
          chave: account.credentials.pix_key ?? '',
          controlUrl: account.mode === 'test' ? config.EFI_SANDBOX_CONTROL_URL : undefined,
          timeoutMs: config.PROVIDER_TIMEOUT_MS,
          webhookSecret: account.webhookSecret,
        });
      }
      default:
        throw new Error(`No adapter for provider ${account.provider}`);
    }
  };
}
