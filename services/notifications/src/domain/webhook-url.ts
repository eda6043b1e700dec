import { isIP } from 'node:net';

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/** Addresses a live endpoint may not point at: loopback, private, link-local, unspecified. */
export function isInternalAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (LOOPBACK_HOSTS.has(bare) || bare.endsWith('.localhost') || bare.endsWith('.internal') || bare.endsWith('.local')) return true;
  const kind = isIP(bare);
  if (kind === 4) {
    const [a = 0, b = 0] = bare.split('.').map(Number);
    return a === 0 || a === 10 || a === 127 || (a === 169 && b === 254) || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 100 && b >= 64 && b <= 127);
  }
  if (kind === 6) return bare === '::' || bare.startsWith('fc') || bare.startsWith('fd') || bare.startsWith('fe80') || bare.startsWith('::ffff:');
  return false;
}

/**
 * Checks a webhook endpoint URL (docs/events.md "Endpoints"). Live mode: https only, to a public
 * host. Test mode: https anywhere, or plain http to the developer's own machine (localhost,
 * 127.0.0.1, [::1]) so that a receiver can be tried without certificates. Answers the Portuguese
 * reason, or null when the URL is acceptable.
 */
export function webhookUrlProblem(raw: string, mode: 'test' | 'live'): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'Informe uma URL completa, por exemplo https://exemplo.com.br/webhooks.';
  }
  if (raw.length > 2048) return 'A URL pode ter no máximo 2048 caracteres.';
  if (url.username || url.password) return 'Não coloque usuário e senha na URL; verifique a assinatura Service-Signature em vez disso.';
  if (url.hash) return 'A URL não pode ter fragmento (#).';
  if (url.protocol === 'https:') {
    if (mode === 'live' && isInternalAddress(url.hostname)) return 'No modo real a URL precisa apontar para um endereço público na internet.';
    return null;
  }
  if (url.protocol === 'http:') {
    if (mode === 'test' && LOOPBACK_HOSTS.has(url.hostname.toLowerCase())) return null;
    return mode === 'test'
      ? 'Use https; http só é aceito no modo de teste para localhost, 127.0.0.1 ou [::1].'
      : 'No modo real a URL precisa usar https.';
  }
  return 'A URL precisa começar com https://.';
}
