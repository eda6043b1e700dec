/**
 * The local emulators' control API (tools/emulators), for test-mode accounts only: paying a charge
 * as a buyer would, and pasting a webhook URL where the real provider wants it typed in its
 * dashboard. None of the providers' real sandboxes documents an API for paying a test charge
 * (../shared/providers/psp-apis.md), so simulating a payment exists only where config names an
 * emulator's control URL (`PROVIDER_ENDPOINTS.<provider>.control`); adapters know nothing of it.
 */
import type { AdapterAccount } from '../adapters/adapter-factory';
import { ProviderHttp } from '../adapters/http/provider-http';
import { ProviderError } from '../adapters/provider-adapter';

/**
 * The credential that tells an emulator which of its accounts is meant, and the body field it
 * goes in: charge ids are unique within an account, not across them (two Efí clients may share a
 * txid). Providers not listed need none.
 */
const ACCOUNT_FIELD: Record<string, { field: string; credential: string }> = {
  asaas: { field: 'account', credential: 'api_key' },
  efi: { field: 'client_id', credential: 'client_id' },
  pagarme: { field: 'account', credential: 'secret_key' },
  woovi: { field: 'account', credential: 'app_id' },
};

/** The emulators' approve route of a recurrence whose approval pays no charge (Asaas has none: its approval always pays one). */
const APPROVE_ROUTE: Record<string, (id: string) => string> = {
  efi: (id) => `/__control/recs/${id}/approve`,
  woovi: (id) => `/__control/subscriptions/${id}/approve`,
};

/** The payer's bank debiting a cycle charge (docs/providers.md "Pix Automático in the emulators"). */
const CYCLE_ROUTE: Record<string, (id: string, outcome: CycleOutcome) => string> = {
  efi: (txid, outcome) => `/__control/cobr/${txid}/${outcome === 'paid' ? 'pay' : 'fail'}`,
  asaas: (id, outcome) => `/__control/charges/${id}/${outcome === 'paid' ? 'pay' : 'fail'}`,
  woovi: (id, outcome) => `/__control/charges/${id}/${outcome === 'paid' ? 'pay' : 'fail'}`,
};

export type CycleOutcome = 'paid' | 'failed';

/**
 * The emulator would not debit the cycle now: its attempt is on a later date, or the charge is no
 * longer live (paid, expired, canceled). `reason` is the emulator's own words, for logs.
 */
export class CycleNotDebitableError extends ProviderError {
  constructor(
    provider: string,
    readonly reason: string,
  ) {
    super('rejected', 'provider_rejected', `${provider} emulator: cycle not debitable now: ${reason}`, 409);
    this.name = 'CycleNotDebitableError';
  }
}

export class EmulatorControl {
  readonly #identity: Record<string, string>;
  readonly #http: ProviderHttp;

  constructor(
    private readonly provider: string,
    controlUrl: string,
    credentials: Record<string, string>,
    timeoutMs: number,
  ) {
    const account = ACCOUNT_FIELD[provider];
    const value = account ? credentials[account.credential] : undefined;
    this.#identity = account && value ? { [account.field]: value } : {};
    this.#http = new ProviderHttp({ provider: `${provider} emulator`, baseUrl: controlUrl, timeoutMs });
  }

  /** Pays the charge as the buyer would; the emulator then sends the provider's webhook. */
  async pay(providerPaymentId: string): Promise<void> {
    const answer = await this.post(`/__control/charges/${encodeURIComponent(providerPaymentId)}/pay`, this.#identity);
    if (answer === 200) return;
    if (answer === 404) throw new ProviderError('not_found', 'not_found', `${this.provider} emulator: no charge ${providerPaymentId}`, 404);
    // 409: no longer payable (paid, expired, canceled).
    throw new ProviderError('rejected', 'provider_rejected', `${this.provider} emulator pay: HTTP ${answer}`, answer);
  }

  /**
   * Approves a pending Pix Automático recurrence as the payer's bank would (docs/providers.md "Pix
   * Automático in the emulators"): an approval that pays an immediate charge (Efí journey 3, Asaas,
   * Woovi PAYMENT_ON_APPROVAL) is approved by paying that charge; otherwise by the emulator's
   * approve route. The emulator then sends the provider's webhooks.
   */
  async approveRecurrence(providerRecurrenceId: string, approvalChargeId: string | undefined): Promise<void> {
    if (approvalChargeId) return this.pay(approvalChargeId);
    const route = APPROVE_ROUTE[this.provider];
    if (!route) throw new ProviderError('rejected', 'provider_rejected', `${this.provider} emulator: a recurrence is approved only by paying its approval charge`);
    const answer = await this.post(route(encodeURIComponent(providerRecurrenceId)), this.#identity);
    if (answer === 200) return;
    if (answer === 404) throw new ProviderError('not_found', 'not_found', `${this.provider} emulator: no recurrence ${providerRecurrenceId}`, 404);
    // 409: no longer pending (approved, refused, canceled).
    throw new ProviderError('rejected', 'provider_rejected', `${this.provider} emulator approve: HTTP ${answer}`, answer);
  }

  /**
   * The payer's bank debits a cycle charge (`paid`) or fails its scheduled attempt (`failed`), as
   * each emulator's control port plays it; the emulator then sends the provider's webhooks. Only
   * on or after the attempt's date (the emulators' clock): before it, CycleNotDebitableError.
   */
  async settleCycle(providerChargeId: string, outcome: CycleOutcome): Promise<void> {
    const route = CYCLE_ROUTE[this.provider];
    if (!route) throw new ProviderError('rejected', 'provider_rejected', `${this.provider} emulator: no Pix Automático`);
    const answer = await this.#http.send({
      method: 'POST',
      path: route(encodeURIComponent(providerChargeId), outcome),
      purpose: { operation: 'write' },
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(this.#identity),
    });
    if (answer.status === 200) return;
    if (answer.status === 404) throw new ProviderError('not_found', 'not_found', `${this.provider} emulator: no cycle charge ${providerChargeId}`, 404);
    const message = (answer.body as { message?: unknown } | undefined)?.message;
    if (answer.status === 409) throw new CycleNotDebitableError(this.provider, typeof message === 'string' ? message : 'HTTP 409');
    throw new ProviderError('rejected', 'provider_rejected', `${this.provider} emulator ${outcome}: HTTP ${answer.status}`, answer.status);
  }

  /** Sets the account's webhook URL and events, as the owner would in the provider's dashboard. */
  async configureWebhook(url: string, events: readonly string[]): Promise<void> {
    const answer = await this.post('/__control/webhook', { ...this.#identity, url, events });
    if (answer !== 200) throw new ProviderError('rejected', 'provider_rejected', `${this.provider} emulator webhook: HTTP ${answer}`, answer);
  }

  close(): Promise<void> {
    return this.#http.close();
  }

  private async post(path: string, body: unknown): Promise<number> {
    const answer = await this.#http.send({ method: 'POST', path, purpose: { operation: 'write' }, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    return answer.status;
  }
}

/**
 * The emulator control of an account, or undefined: live accounts never get one, and neither does
 * a test account whose provider has no control URL configured (its real sandbox).
 */
export function emulatorControls(
  controlUrls: Record<string, { control?: string | undefined }>,
  timeoutMs: number,
): (account: Pick<AdapterAccount, 'provider' | 'mode' | 'credentials'>) => EmulatorControl | undefined {
  return (account) => {
    const controlUrl = controlUrls[account.provider]?.control;
    if (account.mode !== 'test' || !controlUrl) return undefined;
    return new EmulatorControl(account.provider, controlUrl, account.credentials, timeoutMs);
  };
}
