/**
 * Stripe payouts (docs.stripe.com/api/payouts, /api/balance; psp-apis.md §6): the account's
 * balance in BRL and payouts to the bank account registered at Stripe (the account's default
 * external account: the only destination; Stripe pays no Pix key by API).
 *
 * Never twice: our payout id is the `Idempotency-Key` of `POST /v1/payouts` (Stripe replays the
 * first answer for 24 h) and rides in `metadata[orquestra_payout_id]`, by which a payout whose
 * id we never learned (a lost answer) is found in the account's payout list.
 */
import { ProviderError } from '../provider-adapter';
import type { CreateTransferInput, ProviderBalance, ProviderTransfer, TransferStatus } from '../provider-payouts';
import { webhookObject } from '../webhook-body';
import { providerErrorFor } from './stripe.errors';
import type { FormValue } from './stripe.form-encoding';
import type { StripeList } from './stripe.transformers';

type Api = (
  method: 'GET' | 'POST',
  path: string,
  purpose: 'read' | 'write',
  params?: Record<string, FormValue>,
  idempotencyKey?: string,
  connectedAccount?: string,
) => Promise<{ status: number; body: unknown }>;

/** The payout events the webhook endpoint subscribes to: each change of a payout's status. */
export const PAYOUT_EVENTS = ['payout.paid', 'payout.failed', 'payout.canceled', 'payout.updated'] as const;

export const PAYOUT_METADATA_KEY = 'orquestra_payout_id';

/** How far back a payout is looked for by our id (pages of 100, newest first). */
const LIST_PAGES = 10;
const DESCRIPTION_MAX = 140;

export interface StripePayout {
  id: string;
  object: 'payout';
  amount: number;
  status: 'pending' | 'in_transit' | 'paid' | 'failed' | 'canceled';
  arrival_date?: number;
  failure_code?: string | null;
  failure_message?: string | null;
  metadata?: Record<string, string>;
}

interface StripeBalance {
  available?: Array<{ amount: number; currency: string }>;
  pending?: Array<{ amount: number; currency: string }>;
}

const STATUSES: Record<StripePayout['status'], TransferStatus> = { pending: 'processing', in_transit: 'processing', paid: 'paid', failed: 'failed', canceled: 'canceled' };

export function toProviderTransfer(payout: StripePayout, payoutId: string): ProviderTransfer {
  const status = STATUSES[payout.status];
  if (!status) throw new ProviderError('not_created', 'provider_error', `stripe payout: unknown status ${JSON.stringify(payout.status)}`);
  return {
    providerTransferId: payout.id,
    payoutId: payout.metadata?.[PAYOUT_METADATA_KEY] ?? payoutId,
    status,
    providerStatus: payout.status,
    amount: payout.amount,
    // Stripe's arrival date is when the bank is expected to have it: for a paid payout, when it arrived.
    ...(status === 'paid' && payout.arrival_date ? { paidAt: new Date(payout.arrival_date * 1000) } : {}),
    ...(status === 'failed'
      ? {
          failureCode: payout.failure_code ?? 'failed',
          failureReason: payout.failure_message ? `A Stripe não concluiu o repasse: ${payout.failure_message}` : 'A Stripe não concluiu o repasse para a conta bancária.',
        }
      : {}),
  };
}

const brl = (entries: StripeBalance['available']): number | undefined => {
  const found = (entries ?? []).filter((e) => e.currency === 'brl');
  return found.length === 0 ? undefined : found.reduce((sum, e) => sum + e.amount, 0);
};

export class StripePayouts {
  constructor(private readonly api: Api) {}

  async balance(): Promise<ProviderBalance> {
    const answer = await this.api('GET', '/v1/balance', 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'balance');
    const body = answer.body as StripeBalance;
    const pending = brl(body.pending);
    return { available: brl(body.available) ?? 0, ...(pending !== undefined ? { pending } : {}), currency: 'BRL', asOf: new Date() };
  }

  /**
   * A payout to the bank account registered at Stripe; with `connectedAccount` (`Stripe-Account`)
   * the connected account's own payout from its own balance (a subaccount withdrawal).
   */
  async create(input: CreateTransferInput, connectedAccount?: string): Promise<ProviderTransfer> {
    if (input.destination.type !== 'account') throw new ProviderError('rejected', 'provider_rejected', 'stripe payout: only to the account’s bank account');
    const description = input.description?.trim();
    const answer = await this.api(
      'POST',
      '/v1/payouts',
      'write',
      {
        amount: input.amount,
        currency: 'brl',
        // Standard (not instant) payouts: the only kind Stripe offers to Brazilian bank accounts.
        method: 'standard',
        ...(description ? { description: description.slice(0, DESCRIPTION_MAX) } : {}),
        metadata: { [PAYOUT_METADATA_KEY]: input.payoutId },
      },
      input.payoutId,
      connectedAccount,
    );
    if (answer.status === 200) return toProviderTransfer(answer.body as StripePayout, input.payoutId);
    const code = (answer.body as { error?: { code?: unknown } } | undefined)?.error?.code;
    if (code === 'balance_insufficient') throw new ProviderError('rejected', 'insufficient_balance', `stripe payout: HTTP ${answer.status} balance_insufficient`, answer.status);
    throw providerErrorFor(answer.status, answer.body, 'create payout');
  }

  /** By Stripe's id when known; else the newest payouts are searched for our id in the metadata. */
  async get(payoutId: string, providerTransferId?: string, connectedAccount?: string): Promise<ProviderTransfer> {
    if (providerTransferId) {
      const answer = await this.api('GET', `/v1/payouts/${encodeURIComponent(providerTransferId)}`, 'read', undefined, undefined, connectedAccount);
      if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get payout');
      const payout = answer.body as StripePayout;
      if (payout.metadata?.[PAYOUT_METADATA_KEY] !== payoutId) throw new ProviderError('not_found', 'not_found', `stripe payout ${providerTransferId} is not ${payoutId}`);
      return toProviderTransfer(payout, payoutId);
    }
    let after: string | undefined;
    for (let page = 0; page < LIST_PAGES; page += 1) {
      const answer = await this.api('GET', '/v1/payouts', 'read', { limit: 100, ...(after ? { starting_after: after } : {}) }, undefined, connectedAccount);
      if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list payouts');
      const list = answer.body as StripeList<StripePayout>;
      const found = list.data.find((p) => p.metadata?.[PAYOUT_METADATA_KEY] === payoutId);
      if (found) return toProviderTransfer(found, payoutId);
      if (!list.has_more || list.data.length === 0) break;
      after = list.data[list.data.length - 1]?.id;
    }
    throw new ProviderError('not_found', 'not_found', `stripe payout: none under ${payoutId}`);
  }
}

/** The payout a `payout.*` event is about (its id and our payout id from the metadata); none for other events. */
export function payoutOfEvent(rawBody: Buffer): Array<{ providerTransferId: string; payoutId?: string }> {
  const body = webhookObject(rawBody) as { type?: unknown; data?: { object?: { object?: unknown; id?: unknown; metadata?: Record<string, unknown> } } } | undefined;
  const payout = body?.data?.object;
  if (typeof body?.type !== 'string' || !body.type.startsWith('payout.') || payout?.object !== 'payout' || typeof payout.id !== 'string') return [];
  const payoutId = payout.metadata?.[PAYOUT_METADATA_KEY];
  return [{ providerTransferId: payout.id, ...(typeof payoutId === 'string' && payoutId ? { payoutId } : {}) }];
}
