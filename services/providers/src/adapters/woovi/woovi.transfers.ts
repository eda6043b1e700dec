/**
 * Woovi balance and Pix payments out ("Pix Out", PayoutCapable in provider-payouts.ts), given the
 * adapter's `api` call. Sources: developers.woovi.com "Fluxo Básico de Pagamento" (`POST
 * /api/v1/payment {value (cents), destinationAlias, destinationAliasType, correlationID, comment}`,
 * then `POST /api/v1/payment/approve {correlationID}`), the API reference (`GET
 * /api/v1/payment/{id}`, `GET /api/v1/account/` with `balance{total, blocked, available}` in cents),
 * and "Payload de Pagamentos" (`OPENPIX:MOVEMENT_CONFIRMED` / `MOVEMENT_FAILED` /
 * `MOVEMENT_REMOVED` with `{payment{…, correlationID}, transaction?, error?}`).
 *
 * Destinations: a Pix key only. The payment's correlationID is our payout id, so Woovi's own
 * idempotency makes every step repeatable: a create names the payment it made before, an approve
 * of a payment already sent answers it as it is, and getTransfer reads it by that id. Creating the
 * payment moves no money (only the approval does), so a lost create answer is safe to repeat.
 *
 * Status words beyond the documented `CREATED`, `CONFIRMED`, `FAILED` and `DENIED` are read
 * conservatively: an unknown one is `processing` (the money may be on its way), never final.
 */
import { createHash } from 'node:crypto';
import { ProviderError } from '../provider-adapter';
import type { CreateTransferInput, PayoutDestination, ProviderBalance, ProviderTransfer, TransferStatus } from '../provider-payouts';
import { webhookObject } from '../webhook-body';
import { errorMessage, providerErrorFor } from './woovi.transformers';

export interface WooviPaymentAnswer {
  payment?: { value?: unknown; status?: unknown; correlationID?: unknown };
  transaction?: { value?: unknown; endToEndId?: unknown; time?: unknown } | null;
  error?: { code?: unknown; description?: unknown } | null;
}

const ALIAS_TYPES = { cpf: 'CPF', cnpj: 'CNPJ', email: 'EMAIL', phone: 'PHONE', evp: 'RANDOM' } as const;

export function mapPaymentStatus(status: string): TransferStatus {
  switch (status) {
    case 'CREATED':
      return 'pending';
    case 'CONFIRMED':
      return 'paid';
    case 'FAILED':
    case 'DENIED':
      return 'failed';
    case 'REMOVED':
      return 'canceled';
    default:
      // APPROVED and anything undocumented: sent or being sent, not final.
      return 'processing';
  }
}

/** The transfer of a Woovi payment answer (or webhook body); undefined when it names no payment. */
export function toProviderTransfer(answer: WooviPaymentAnswer): ProviderTransfer | undefined {
  const payment = answer.payment;
  if (typeof payment?.correlationID !== 'string' || typeof payment.status !== 'string' || typeof payment.value !== 'number') return undefined;
  const status = mapPaymentStatus(payment.status);
  const transaction = answer.transaction ?? undefined;
  const paidAt = status === 'paid' && typeof transaction?.time === 'string' ? new Date(transaction.time) : undefined;
  const description = typeof answer.error?.description === 'string' ? answer.error.description : undefined;
  return {
    providerTransferId: payment.correlationID,
    payoutId: payment.correlationID,
    status,
    providerStatus: payment.status,
    amount: payment.value,
    ...(status === 'failed'
      ? {
          failureCode: typeof answer.error?.code === 'string' ? answer.error.code.toLowerCase() : 'transfer_failed',
          failureReason: description ? `Woovi: ${description}` : 'Woovi: pagamento não realizado',
        }
      : {}),
    ...(status === 'canceled' ? { failureCode: 'transfer_canceled', failureReason: 'Woovi: pagamento removido' } : {}),
    ...(paidAt && !Number.isNaN(paidAt.getTime()) ? { paidAt } : {}),
    ...(typeof transaction?.endToEndId === 'string' && transaction.endToEndId ? { endToEndId: transaction.endToEndId } : {}),
  };
}

type Api = (method: 'GET' | 'POST', path: string, purpose: { operation: 'prepare' } | 'read' | 'write', body?: unknown) => Promise<{ status: number; body: unknown }>;

export async function wooviBalance(api: Api): Promise<ProviderBalance> {
  const answer = await api('GET', '/api/v1/account/', 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get balance');
  const accounts = (answer.body as { accounts?: { isDefault?: unknown; balance?: { available?: unknown; blocked?: unknown } }[] } | undefined)?.accounts ?? [];
  const account = accounts.find((a) => a.isDefault === true) ?? accounts[0];
  const { available, blocked } = account?.balance ?? {};
  if (typeof available !== 'number') throw new ProviderError('not_created', 'provider_error', 'woovi get balance: answer without an account balance', answer.status);
  return { available, ...(typeof blocked === 'number' ? { pending: blocked } : {}), currency: 'BRL', asOf: new Date() };
}

function transferOf(answer: { status: number; body: unknown }, operation: string, kind: 'not_created' | 'ambiguous'): ProviderTransfer {
  const transfer = toProviderTransfer(answer.body as WooviPaymentAnswer);
  if (transfer) return transfer;
  throw new ProviderError(kind, 'provider_error', `woovi ${operation}: HTTP ${answer.status} without a readable payment`, answer.status);
}

function refusal(status: number, body: unknown, operation: string): ProviderError {
  if (status === 400 && /saldo insuficiente|insufficient/i.test(errorMessage(body) ?? '')) {
    return new ProviderError('rejected', 'insufficient_balance', `woovi ${operation}: HTTP 400: ${errorMessage(body) ?? ''}`, status, {
      name: 'amount',
      publicMessage: 'Saldo insuficiente na conta Woovi para este repasse.',
    });
  }
  return providerErrorFor(status, body, operation);
}

function aliasOf(destination: PayoutDestination): { destinationAlias: string; destinationAliasType: string } {
  if (destination.type !== 'pix_key') {
    throw new ProviderError('rejected', 'provider_rejected', 'woovi create transfer: only Pix keys', undefined, {
      name: 'destination',
      publicMessage: 'A Woovi só aceita repasses para uma chave Pix.',
    });
  }
  return { destinationAlias: destination.key, destinationAliasType: ALIAS_TYPES[destination.keyType] };
}

/** Create (or find) the payment under our payout id, then approve it unless it was already sent. */
export async function createWooviTransfer(api: Api, input: CreateTransferInput): Promise<ProviderTransfer> {
  const alias = aliasOf(input.destination);
  const created = await api('POST', '/api/v1/payment', { operation: 'prepare' }, {
    value: input.amount,
    ...alias,
    correlationID: input.payoutId,
    comment: (input.description ?? '').slice(0, 140),
  });
  let payment: ProviderTransfer;
  if (created.status === 200 || created.status === 201) payment = transferOf(created, 'create payment', 'not_created');
  else if (created.status === 400 && /correlationID/i.test(errorMessage(created.body) ?? '')) payment = await getWooviTransfer(api, { payoutId: input.payoutId });
  else throw refusal(created.status, created.body, 'create payment');
  if (payment.amount !== input.amount) {
    throw new ProviderError('rejected', 'provider_rejected', `woovi create transfer: ${input.payoutId} already names a payment of another amount (${payment.amount})`);
  }
  if (payment.status !== 'pending') return payment;
  const approved = await api('POST', '/api/v1/payment/approve', 'write', { correlationID: input.payoutId });
  if (approved.status !== 200 && approved.status !== 201) throw refusal(approved.status, approved.body, 'approve payment');
  return transferOf(approved, 'approve payment', 'ambiguous');
}

/** By our payout id (the payment's correlationID); Woovi answers an unknown one 400 "não encontrado" → `not_found`. */
export async function getWooviTransfer(api: Api, input: { payoutId: string; providerTransferId?: string }): Promise<ProviderTransfer> {
  const answer = await api('GET', `/api/v1/payment/${encodeURIComponent(input.providerTransferId ?? input.payoutId)}`, 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get payment');
  return transferOf(answer, 'get payment', 'not_created');
}

export const MOVEMENT_EVENTS = ['OPENPIX:MOVEMENT_CONFIRMED', 'OPENPIX:MOVEMENT_FAILED', 'OPENPIX:MOVEMENT_REMOVED'] as const;

const digest = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);

/**
 * A `OPENPIX:MOVEMENT_*` body names its payment by correlationID (our payout id); other bodies
 * name no transfer. Woovi sends no event id: the key is the event, the payment and its status.
 */
export function parseWooviTransferBody(rawBody: Buffer): { kind: 'transfers'; eventKey: string; transfers: Array<{ providerTransferId: string; payoutId: string }> } | { kind: 'malformed' } {
  const body = webhookObject(rawBody);
  if (!body) return { kind: 'malformed' };
  const event = body['event'];
  if (typeof event !== 'string' || !event.startsWith('OPENPIX:MOVEMENT_')) {
    return { kind: 'transfers', eventKey: `woovi:${typeof event === 'string' ? event : 'unknown'}:${digest(rawBody.toString('utf8'))}`, transfers: [] };
  }
  const payment = (body as WooviPaymentAnswer).payment;
  const id = payment?.correlationID;
  if (typeof id !== 'string' || id.length === 0) return { kind: 'malformed' };
  return { kind: 'transfers', eventKey: `woovi:${event}:${digest(`${id}|${String(payment?.status ?? '')}`)}`, transfers: [{ providerTransferId: id, payoutId: id }] };
}
