/**
 * Outbound webhooks, the way Efí sends them:
 * - a settled Pix is POSTed to the registered URL string with "/pix" appended literally (so a
 *   URL ending in `?ignorar=` receives `?ignorar=/pix`), body `{"pix":[…]}`;
 * - registering a URL first checks the receiver: unless `x-skip-mtls-checking: true`, a request
 *   without a client certificate must be refused (mTLS enforced), then a test notification
 *   `{"evento":"teste_webhook"}` is POSTed to the URL as registered and must get a 2xx;
 * - Pix Automático changes go to `<webhookrec>/rec` and `<webhookcobr>/cobr` the same way;
 * - Efí always presents its client certificate; here that is the emulator's server certificate.
 * Retries on non-2xx or transport errors with exponential backoff (Efí: up to 10 retries from
 * 5 minutes on; here a few, short, configurable).
 */
import { Agent, type Dispatcher } from 'undici';
import { transportErrorCode, WebhookOutbox, withoutQuery, type Logger, type WebhookRetryOptions } from '../../kit';
import type { EmulatorState, PixHolder, PixRecebido, WebhookDelivery, WebhookRegistration } from './emulator-state';
import { pixErrors } from './pix-errors';

export interface WebhookSenderOptions extends WebhookRetryOptions {
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

const JSON_HEADERS = { 'content-type': 'application/json' };
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };

export class WebhookSender extends WebhookOutbox<WebhookDelivery, EmulatorState> {
  private readonly withClientCert: Agent;
  private readonly withoutClientCert: Agent;

  constructor(
    state: EmulatorState,
    tls: WebhookTls,
    private readonly options: WebhookSenderOptions,
    logger: Logger,
  ) {
    super(state, state.deliveries, options, logger);
    const timeouts = { headersTimeout: this.timeoutMs, bodyTimeout: this.timeoutMs };
    this.withClientCert = new Agent({ ...timeouts, connect: { timeout: this.timeoutMs, ca: tls.ca, cert: tls.cert, key: tls.key } });
    this.withoutClientCert = new Agent({ ...timeouts, connect: { timeout: this.timeoutMs, ca: tls.ca } });
  }

  /** Efí always presents its client certificate over https; plain http goes through the outbox's own agent. */
  private dispatcherFor(url: string): Dispatcher | undefined {
    return url.startsWith('https:') ? this.withClientCert : undefined;
  }

  private postJson(url: string, body: unknown, dispatcher: Dispatcher | undefined): Promise<number> {
    return this.post(url, JSON.stringify(body), JSON_HEADERS, dispatcher);
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
    const delivery = this.log.start({ kind: 'registration_test', clientId, urlWithoutQuery: withoutQuery(webhookUrl), txids: [] });
    try {
      const status = await this.postJson(webhookUrl, { evento: 'teste_webhook' }, this.dispatcherFor(webhookUrl));
      this.log.recordAttempt(delivery, { at: this.state.now().toISOString(), status });
      if (status < 200 || status > 299) {
        this.log.finish(delivery, 'failed');
        throw pixErrors.webhookInvalido(`A URL informada respondeu com o código HTTP ${status}`);
      }
      this.log.finish(delivery, 'delivered');
    } catch (err) {
      if (delivery.outcome === 'failed') throw err;
      const code = transportErrorCode(err);
      this.log.recordAttempt(delivery, { at: this.state.now().toISOString(), error: code });
      this.log.finish(delivery, 'failed');
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
      await this.postJson(webhookUrl, { evento: 'teste_webhook' }, this.withoutClientCert);
      accepted = true;
    } catch {
      // Refused during or right after the handshake: mTLS is enforced.
    }
    if (accepted) throw pixErrors.webhookInvalido('A autenticação de TLS mútuo não está configurada na URL informada');
  }

  /**
   * Sends the notification of a settled Pix (and again, with `devolucoes[]`, when a devolução
   * of it settles) in the background, retrying; recorded as a delivery. */
  notifyPix(charge: PixHolder, registration: WebhookRegistration, pix: PixRecebido): void {
    const url = `${registration.webhookUrl}/pix`;
    // A snapshot: the Pix as it is now (a devolução settling later sends its own notification).
    const body = { pix: [{ ...structuredClone(pix), chave: charge.request.chave }] };
    const delivery = this.log.start({ kind: 'pix', clientId: charge.clientId, urlWithoutQuery: withoutQuery(url), txids: [charge.txid] });
    this.enqueue({ delivery, url, body: JSON.stringify(body), headers: () => JSON_HEADERS, dispatcher: this.dispatcherFor(url) });
  }

  /** A Pix sent from the account settled: `body` to the key's URL plus "/pix", as for a received Pix. */
  notifyEnvio(clientId: string, registration: WebhookRegistration, body: unknown, idEnvio: string): void {
    const url = `${registration.webhookUrl}/pix`;
    const delivery = this.log.start({ kind: 'envio', clientId, urlWithoutQuery: withoutQuery(url), txids: [idEnvio] });
    this.enqueue({ delivery, url, body: JSON.stringify(body), headers: () => JSON_HEADERS, dispatcher: this.dispatcherFor(url) });
  }

  /**
   * A Pix Automático notification: `body` to the registered `webhookrec` URL plus "/rec", or the
   * `webhookcobr` URL plus "/cobr", appended as for "/pix"; same certificate, retries and log.
   */
  notifyRecurrence(kind: 'rec' | 'cobr', clientId: string, webhookUrl: string, body: unknown, ids: string[]): void {
    const url = `${webhookUrl}/${kind}`;
    const delivery = this.log.start({ kind, clientId, urlWithoutQuery: withoutQuery(url), txids: ids });
    this.enqueue({ delivery, url, body: JSON.stringify(body), headers: () => JSON_HEADERS, dispatcher: this.dispatcherFor(url) });
  }

  /**
   * A Cobranças (boleto) change: Efí POSTs `notification=<token>` form-encoded to the charge's
   * `notification_url` as given (the receiver reads the change with `GET /v1/notification/:token`).
   */
  notifyCobranca(clientId: string, url: string, token: string, chargeId: string): void {
    const delivery = this.log.start({ kind: 'charge', clientId, urlWithoutQuery: withoutQuery(url), txids: [chargeId] });
    this.enqueue({ delivery, url, body: new URLSearchParams({ notification: token }).toString(), headers: () => FORM_HEADERS, dispatcher: this.dispatcherFor(url) });
  }

  override async close(): Promise<void> {
    await super.close();
    await Promise.all([this.withClientCert.close(), this.withoutClientCert.close()]);
  }
}
