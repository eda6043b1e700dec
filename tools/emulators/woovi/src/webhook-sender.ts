/**
 * Outbound webhooks, the way Woovi sends them: one POST per active registration of the account
 * for the event, JSON body, `x-webhook-signature` = base64 RSA-SHA256 of the exact bytes sent,
 * and the registration's `authorization` echoed in `Authorization` (and `x-openpix-authorization`,
 * per third-party descriptions: unconfirmed). A non-2xx answer or a transport error is retried
 * with exponential backoff (Woovi: 8 attempts, 10 s · 2^n; here a few, short, configurable).
 */
import { WebhookOutbox, withoutQuery, type Logger, type WebhookRetryOptions } from '../../kit';
import { webhookBody, type Company, type WooviEvent } from './charge-json';
import type { EmulatorState, StoredCharge, WebhookDelivery, WebhookRecord } from './emulator-state';
import type { SigningKeys } from './signing-keys';

export class WebhookSender extends WebhookOutbox<WebhookDelivery, EmulatorState> {
  constructor(
    state: EmulatorState,
    private readonly keys: SigningKeys,
    private readonly company: Company,
    options: WebhookRetryOptions,
    logger: Logger,
  ) {
    super(state, state.deliveries, options, logger);
  }

  /** Sends `event` about `charge` to every matching registration in the background; answers how many. */
  notify(event: WooviEvent, charge: StoredCharge): number {
    const registrations = this.state.webhooksFor(charge.accountId, event);
    if (registrations.length === 0) return 0;
    const body = Buffer.from(JSON.stringify(webhookBody(this.state, event, charge, this.company)));
    const signature = this.keys.signature(body);
    for (const registration of registrations) this.deliver(registration, event, charge.correlationID, body, signature);
    return registrations.length;
  }

  /** Sends a prepared payload (a refund's) for `event`, with the company and account added as Woovi does. */
  notifyWith(event: string, charge: StoredCharge, payload: Record<string, unknown>): number {
    return this.notifyAccount(event, charge.accountId, payload, charge.correlationID);
  }

  /** Sends a payload about anything of the account (a Pix Automático subscription), company and account added. */
  notifyAccount(event: string, accountId: string, payload: Record<string, unknown>, correlationID?: string): number {
    const registrations = this.state.webhooksFor(accountId, event);
    if (registrations.length === 0) return 0;
    const body = Buffer.from(JSON.stringify({ ...payload, company: this.company, account: {} }));
    const signature = this.keys.signature(body);
    for (const registration of registrations) this.deliver(registration, event, correlationID, body, signature);
    return registrations.length;
  }

  /**
   * The test notification Woovi posts once when a webhook is created: `{data_criacao, event}`
   * (docs "Validando o webhook de teste"). Its outcome does not affect the registration here.
   */
  notifyTest(registration: WebhookRecord): void {
    const body = Buffer.from(JSON.stringify({ data_criacao: this.state.now().toISOString(), event: registration.event }));
    this.deliver(registration, registration.event, undefined, body, this.keys.signature(body));
  }

  private deliver(registration: WebhookRecord, event: string, correlationID: string | undefined, body: Buffer, signature: string): void {
    const delivery = this.log.start({
      event,
      accountId: registration.accountId,
      urlWithoutQuery: withoutQuery(registration.url),
      ...(correlationID ? { correlationID } : {}),
    });
    const headers: Record<string, string> = { 'content-type': 'application/json', 'x-webhook-signature': signature };
    if (registration.authorization) {
      headers['authorization'] = registration.authorization;
      headers['x-openpix-authorization'] = registration.authorization;
    }
    this.enqueue({ delivery, url: registration.url, body, headers: () => headers, logFields: { event } });
  }
}
