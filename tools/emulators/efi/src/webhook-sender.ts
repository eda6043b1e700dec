/**
 * Outbound webhooks, the way Efí sends them:
 * - a settled Pix is POSTed to the registered URL string with "/pix" appended literally (so a
 *   URL ending in `?ignorar=` receives `?ignorar=/pix`), body `{"pix":[…]}`;
 * - registering a URL first checks the receiver: unless `x-skip-mtls-checking: true`, a request
 *   without a client certificate must be refused (mTLS enforced), then a test notification
 *   `{"evento":"teste_webhook"}` is POSTed to the URL as registered and must get a 2xx;
 * - Efí always presents its client certificate; here that is the emulator's server certificate.
 * Retries on non-2xx or transport errors with exponential backoff (Efí: up to 10 retries from
 * 5 minutes on; here a few, short, configurable).
 */
import { Agent, request, type Dispatcher } from 'undici';
import type { EmulatorState, PixRecebido, StoredCharge, WebhookRegistration } from './emulator-state';
import { pixErrors } from './pix-errors';
import type { Logger } from './logger';

export interface WebhookSenderOptions {
  /** Retries after the first attempt (default 3). */
  retries?: number;
  /** Delay before the first retry, doubled each time (default 500 ms). */
  baseDelayMs?: number;
  /** Per-attempt timeout (Efí: 60 s; default 5 s). */
  timeoutMs?: number;
  /** Check the receiver when a webhook is registered, as Efí does (default true). */
  verifyOnRegister?: boolean;
  /** Refuse http:// webhook URLs, as Efí does (default false: local receivers are plain HTTP). */
  requireHttps?: boolean;
}

export interface WebhookTls {
  ca: string | Buffer;
  cert: string | Buffer;
  key: string | Buffer;
}

function withoutQuery(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

function errorCode(err: unknown): string {
  const e = err as { code?: string; cause?: { code?: string }; errors?: { code?: string }[] };
  return e.code ?? e.cause?.code ?? e.errors?.[0]?.code ?? 'UNKNOWN';
}

export class WebhookSender {
  private readonly plain: Agent;
  private readonly withClientCert: Agent;
  private readonly withoutClientCert: Agent;
  private readonly pending = new Set<Promise<void>>();
  private readonly abort = new AbortController();
  private readonly retries: number;
  private readonly baseDelayMs: number;
  private readonly timeoutMs: number;

  constructor(
    private readonly state: EmulatorState,
    tls: WebhookTls,
    private readonly options: WebhookSenderOptions,
    private readonly logger: Logger,
  ) {
    this.retries = options.retries ?? 3;
    this.baseDelayMs = options.baseDelayMs ?? 500;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    const timeouts = { headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs };
    this.plain = new Agent({ ...timeouts, connect: { timeout: this.timeoutMs } });
    this.withClientCert = new Agent({ ...timeouts, connect: { timeout: this.timeoutMs, ca: tls.ca, cert: tls.cert, key: tls.key } });
    this.withoutClientCert = new Agent({ ...timeouts, connect: { timeout: this.timeoutMs, ca: tls.ca } });
  }

  private dispatcherFor(url: string): Dispatcher {
    return url.startsWith('https:') ? this.withClientCert : this.plain;
  }

  private async post(url: string, body: unknown, dispatcher: Dispatcher): Promise<number> {
    const response = await request(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      dispatcher,
      signal: this.abort.signal,
    });
    await response.body.dump();
    return response.statusCode;
  }

  /**
   * Checks a URL being registered; throws the `webhook_invalido` error Efí answers when the
   * receiver is unusable.
   */
  async verifyReceiver(clientId: string, webhookUrl: string, skipMtlsChecking: boolean): Promise<void> {
    let parsed: URL;
    try {
      parsed = new URL(webhookUrl);
    } catch {
      throw pixErrors.valorInvalido('URL inválida');
    }
    if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw pixErrors.valorInvalido('URL inválida');
    if (this.options.requireHttps && parsed.protocol !== 'https:') {
      throw pixErrors.valorInvalido('A URL do webhook deve usar o protocolo HTTPS');
    }
    if (this.options.verifyOnRegister === false) return;
    if (!skipMtlsChecking) await this.checkMtlsEnforced(webhookUrl);
    const delivery = this.state.startDelivery({ kind: 'registration_test', clientId, urlWithoutQuery: withoutQuery(webhookUrl), txids: [] });
    try {
      const status = await this.post(webhookUrl, { evento: 'teste_webhook' }, this.dispatcherFor(webhookUrl));
      this.state.recordAttempt(delivery, { at: this.state.now().toISOString(), status });
      if (status < 200 || status > 299) {
        this.state.finishDelivery(delivery, 'failed');
        throw pixErrors.webhookInvalido(`A URL informada respondeu com o código HTTP ${status}`);
      }
      this.state.finishDelivery(delivery, 'delivered');
    } catch (err) {
      if (delivery.outcome === 'failed') throw err;
      const code = errorCode(err);
      this.state.recordAttempt(delivery, { at: this.state.now().toISOString(), error: code });
      this.state.finishDelivery(delivery, 'failed');
      if (code.includes('TIMEOUT')) throw pixErrors.webhookInvalido('A URL informada atingiu o tempo limite de resposta');
      throw pixErrors.webhookInvalido(`A requisição na URL informada falhou com o erro: ${code}`);
    }
  }

  /** Efí's first registration request: sent without a certificate, it must be refused. */
  private async checkMtlsEnforced(webhookUrl: string): Promise<void> {
    if (!webhookUrl.startsWith('https:')) {
      throw pixErrors.webhookInvalido('A autenticação de TLS mútuo não está configurada na URL informada');
    }
    let accepted = false;
    try {
      await this.post(webhookUrl, { evento: 'teste_webhook' }, this.withoutClientCert);
      accepted = true;
    } catch {
      // Refused during or right after the handshake: mTLS is enforced.
    }
    if (accepted) throw pixErrors.webhookInvalido('A autenticação de TLS mútuo não está configurada na URL informada');
  }

  /**
   * Sends the notification of a settled Pix (and again, with `devolucoes[]`, when a devolução
   * of it settles) in the background, retrying; recorded as a delivery. */
  notifyPix(charge: StoredCharge, registration: WebhookRegistration, pix: PixRecebido): void {
    const url = `${registration.webhookUrl}/pix`;
    // A snapshot: the Pix as it is now (a devolução settling later sends its own notification).
    const body = { pix: [{ ...structuredClone(pix), chave: charge.request.chave }] };
    const delivery = this.state.startDelivery({ kind: 'pix', clientId: charge.clientId, urlWithoutQuery: withoutQuery(url), txids: [charge.txid] });
    const run = (async () => {
      for (let attempt = 0; attempt <= this.retries; attempt += 1) {
        if (attempt > 0) await this.sleep(this.baseDelayMs * 2 ** (attempt - 1));
        if (this.abort.signal.aborted) break;
        try {
          const status = await this.post(url, body, this.dispatcherFor(url));
          this.state.recordAttempt(delivery, { at: this.state.now().toISOString(), status });
          if (status >= 200 && status <= 299) {
            this.state.finishDelivery(delivery, 'delivered');
            this.logger.info({ delivery: delivery.id, url: delivery.urlWithoutQuery, status }, 'webhook delivered');
            return;
          }
        } catch (err) {
          this.state.recordAttempt(delivery, { at: this.state.now().toISOString(), error: errorCode(err) });
        }
      }
      this.state.finishDelivery(delivery, 'failed');
      this.logger.warn({ delivery: delivery.id, url: delivery.urlWithoutQuery, attempts: delivery.attempts.length }, 'webhook failed');
    })();
    this.pending.add(run);
    void run.finally(() => this.pending.delete(run));
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      this.abort.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        resolve();
      }, { once: true });
    });
  }

  /** Resolves when every background delivery has finished (tests use it). */
  async idle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  async close(): Promise<void> {
    this.abort.abort();
    await this.idle();
    await Promise.all([this.plain.close(), this.withClientCert.close(), this.withoutClientCert.close()]);
  }
}
