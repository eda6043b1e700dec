/**
 * Outbound webhooks, the way Pagar.me sends them: a POST of
 * `{id:"hook_…", account:{id,name}, type, created_at, data}` to the URL configured for the account
 * (in Pagar.me's dashboard; here through `POST /__control/webhook`), for the events chosen there.
 * Pagar.me v5 signs nothing (no documented signature header), so receivers authenticate by a
 * secret they put in the URL. Non-2xx answers and transport errors are retried with exponential
 * backoff, keeping the same hook id, so receivers can dedupe retries.
 */
import { WebhookOutbox, withoutQuery } from '../../kit';
import type { EmulatorState, WebhookDelivery } from './emulator-state';
import { newId } from './pagarme-ids';

export class WebhookSender extends WebhookOutbox<WebhookDelivery, EmulatorState> {
  /** Sends one event in the background if the account's webhook subscribes to it; answers whether it will. */
  send(accountId: string, type: string, data: unknown, chargeIds: string[]): boolean {
    const config = this.state.getWebhook(accountId);
    if (!config || !config.events.includes(type)) return false;
    const body = {
      id: newId('hook'),
      account: { id: accountId, name: this.state.accountName(accountId) },
      type,
      created_at: this.state.now().toISOString(),
      data,
    };
    const delivery = this.log.start({ id: body.id, accountId, type, urlWithoutQuery: withoutQuery(config.url), chargeIds });
    this.enqueue({
      delivery,
      url: config.url,
      body: JSON.stringify(body),
      headers: () => ({ 'content-type': 'application/json', 'user-agent': 'Pagar.me-Webhooks (emulator)' }),
      logFields: { type },
    });
    return true;
  }
}
