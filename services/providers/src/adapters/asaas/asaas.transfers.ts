/**
 * Asaas balance and transfers (PayoutCapable, provider-payouts.ts), given the adapter's `api` call.
 * Sources: docs.asaas.com "Recuperar saldo da conta" (`GET /v3/finance/balance` → `{balance}` in
 * reais), "Transferir para conta de outra instituição ou chave Pix" (`POST /v3/transfers {value,
 * pixAddressKey, pixAddressKeyType, description, externalReference}`), "Recuperar uma única
 * transferência" (`GET /v3/transfers/{id}`), "Listar transferências", "Eventos para transferências"
 * (`TRANSFER_*` webhooks with `{transfer:{…}}`), and the changelog of 2024-10-14 (externalReference
 * on transfers, echoed by reads and webhooks).
 *
 * Destinations: a Pix key only. Asaas pays a bank account only from its full details
 * (`bankAccount{bank, agency, account, …}`), and keeps no "the account's own bank account" we could
 * name, so `account` is not offered.
 *
 * Never twice: Asaas has no idempotency key, so our payout id goes in `externalReference`, and
 * every create first lists the account's transfers for one carrying it (the answer, if found). A
 * create whose answer was lost is `ambiguous`; getTransfer then finds it the same way. Two creates
 * of one payout at the same instant could both miss the search: the payouts service never runs two
 * at once (its state moves with one conditional write before calling).
 */
import { assertNever } from '@orquestra/platform';
import { ProviderError } from '../provider-adapter';
import type { CreateTransferInput, PayoutDestination, ProviderBalance, ProviderTransfer, TransferStatus } from '../provider-payouts';
import { errorCode, providerErrorFor } from './asaas.errors';
import { centsToReais, parseSaoPauloTime, reaisToCents, type AsaasList, type DecimalText } from './asaas.transformers';

export type AsaasTransferStatus = 'PENDING' | 'BANK_PROCESSING' | 'DONE' | 'CANCELLED' | 'FAILED';

export interface AsaasTransfer {
  id: string;
  status: AsaasTransferStatus;
  value: DecimalText;
  transferFee?: DecimalText | null;
  effectiveDate?: string | null;
  endToEndIdentifier?: string | null;
  failReason?: string | null;
  externalReference?: string | null;
}

const PIX_KEY_TYPES = { cpf: 'CPF', cnpj: 'CNPJ', email: 'EMAIL', phone: 'PHONE', evp: 'EVP' } as const;

/** Every documented transfer status; a new one fails to compile here. */
export function mapTransferStatus(status: AsaasTransferStatus): TransferStatus {
  switch (status) {
    case 'PENDING':
      return 'pending';
    case 'BANK_PROCESSING':
      return 'processing';
    case 'DONE':
      return 'paid';
    case 'FAILED':
      return 'failed';
    case 'CANCELLED':
      return 'canceled';
    default:
      return assertNever(status);
  }
}

export function toProviderTransfer(transfer: AsaasTransfer, payoutId: string): ProviderTransfer {
  const status = mapTransferStatus(transfer.status);
  const fee = transfer.transferFee ? reaisToCents(transfer.transferFee) : undefined;
  const paidAt = status === 'paid' && transfer.effectiveDate ? parseSaoPauloTime(transfer.effectiveDate) : undefined;
  return {
    providerTransferId: transfer.id,
    payoutId: transfer.externalReference || payoutId,
    status,
    providerStatus: transfer.status,
    amount: reaisToCents(transfer.value),
    ...(fee !== undefined ? { fee } : {}),
    ...(status === 'failed'
      ? { failureCode: 'transfer_failed', failureReason: transfer.failReason ? `Asaas: ${transfer.failReason}` : 'Asaas: transferência não realizada' }
      : {}),
    ...(status === 'canceled' ? { failureCode: 'transfer_canceled', failureReason: 'Asaas: transferência cancelada' } : {}),
    ...(paidAt ? { paidAt } : {}),
    ...(transfer.endToEndIdentifier ? { endToEndId: transfer.endToEndIdentifier } : {}),
  };
}

type Api = (method: 'GET' | 'POST', path: string, operation: 'read' | 'write', body?: unknown) => Promise<{ status: number; body: unknown }>;

export async function asaasBalance(api: Api): Promise<ProviderBalance> {
  const answer = await api('GET', '/finance/balance', 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get balance');
  const balance = (answer.body as { balance?: DecimalText } | undefined)?.balance;
  if (typeof balance !== 'string') throw new ProviderError('not_created', 'provider_error', 'asaas get balance: answer without a balance', answer.status);
  // Asaas reports one figure, what can be transferred now; receivables not yet released are elsewhere.
  return { available: reaisToCents(balance), currency: 'BRL', asOf: new Date() };
}

/** Pages read before concluding no transfer carries our id (newest first: a recent payout is on the first). */
const MAX_PAGES = 10;
const PAGE = 100;

async function findByReference(api: Api, payoutId: string): Promise<AsaasTransfer | undefined> {
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await api('GET', `/transfers?limit=${PAGE}&offset=${page * PAGE}`, 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list transfers');
    const list = answer.body as AsaasList<AsaasTransfer> & { hasMore?: boolean };
    const found = list.data.find((t) => t.externalReference === payoutId);
    if (found) return found;
    if (!list.hasMore) return undefined;
  }
  return undefined;
}

function refusal(status: number, body: unknown): ProviderError {
  const error = providerErrorFor(status, body, 'create transfer');
  const description = JSON.stringify((body as { errors?: unknown } | undefined)?.errors ?? '');
  // Asaas refuses more than the balance with a 400 whose text speaks of the balance ("saldo").
  if (status === 400 && /saldo/i.test(description)) {
    return new ProviderError('rejected', 'insufficient_balance', error.message, status, {
      name: 'amount',
      publicMessage: 'Saldo insuficiente na conta Asaas para este repasse.',
    });
  }
  // Any other 4xx is about our input (the key, its type, the value): the same anywhere.
  if (status >= 400 && status < 500 && status !== 401 && status !== 403 && status !== 404 && errorCode(body) !== undefined) {
    return new ProviderError('rejected', 'provider_rejected', error.message, status);
  }
  return error;
}

function pixKeyOf(destination: PayoutDestination): { pixAddressKey: string; pixAddressKeyType: string } {
  if (destination.type !== 'pix_key') {
    throw new ProviderError('rejected', 'provider_rejected', 'asaas create transfer: only Pix keys', undefined, {
      name: 'destination',
      publicMessage: 'O Asaas só aceita repasses para uma chave Pix.',
    });
  }
  return { pixAddressKey: destination.key, pixAddressKeyType: PIX_KEY_TYPES[destination.keyType] };
}

function checked(transfer: AsaasTransfer, input: CreateTransferInput): ProviderTransfer {
  const found = toProviderTransfer(transfer, input.payoutId);
  if (found.amount !== input.amount) {
    throw new ProviderError('rejected', 'provider_rejected', `asaas create transfer: ${input.payoutId} already made a transfer of another amount (${found.amount})`);
  }
  return found;
}

/** Looks our payout id up first (a repeat after a lost answer); otherwise `POST /transfers`. */
export async function createAsaasTransfer(api: Api, input: CreateTransferInput): Promise<ProviderTransfer> {
  const key = pixKeyOf(input.destination);
  let value;
  try {
    value = centsToReais(input.amount);
  } catch (err) {
    throw new ProviderError('rejected', 'provider_rejected', `asaas create transfer: ${(err as Error).message}`, undefined, { name: 'amount', publicMessage: 'Valor inválido para um repasse.' });
  }
  const earlier = await findByReference(api, input.payoutId);
  if (earlier) return checked(earlier, input);
  const answer = await api('POST', '/transfers', 'write', {
    value,
    ...key,
    operationType: 'PIX',
    ...(input.description ? { description: input.description.slice(0, 140) } : {}),
    externalReference: input.payoutId,
  });
  if (answer.status !== 200) throw refusal(answer.status, answer.body);
  return checked(answer.body as AsaasTransfer, input);
}

/** By Asaas's id when known, else by our payout id in `externalReference`; `not_found` when none carries it. */
export async function getAsaasTransfer(api: Api, input: { payoutId: string; providerTransferId?: string }): Promise<ProviderTransfer> {
  if (input.providerTransferId) {
    const answer = await api('GET', `/transfers/${encodeURIComponent(input.providerTransferId)}`, 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get transfer');
    return toProviderTransfer(answer.body as AsaasTransfer, input.payoutId);
  }
  const found = await findByReference(api, input.payoutId);
  if (!found) throw new ProviderError('not_found', 'not_found', `asaas get transfer: no transfer carries ${input.payoutId}`);
  return toProviderTransfer(found, input.payoutId);
}

export const TRANSFER_EVENTS = [
  'TRANSFER_CREATED',
  'TRANSFER_PENDING',
  'TRANSFER_IN_BANK_PROCESSING',
  'TRANSFER_BLOCKED',
  'TRANSFER_DONE',
  'TRANSFER_FAILED',
  'TRANSFER_CANCELLED',
] as const;

/** The transfer a `TRANSFER_*` event names (`{transfer:{id, externalReference}}`); undefined when malformed. */
export function transferOfEvent(body: unknown): { providerTransferId: string; payoutId?: string } | undefined {
  const transfer = (body as { transfer?: { id?: unknown; externalReference?: unknown } } | undefined)?.transfer;
  if (typeof transfer?.id !== 'string' || transfer.id.length === 0) return undefined;
  const reference = transfer.externalReference;
  return { providerTransferId: transfer.id, ...(typeof reference === 'string' && reference.length > 0 ? { payoutId: reference } : {}) };
}
