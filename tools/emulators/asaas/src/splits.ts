/**
 * Split of a charge (`split: [{walletId, fixedValue | percentualValue}]` on `POST /v3/payments`),
 * as docs.asaas.com "Split de pagamentos" describes it:
 * - each part names an Asaas wallet (`walletId`, the one `POST /v3/accounts` answers) and a fixed
 *   value in reais; an unknown wallet, the caller's own wallet or parts adding up to more than the
 *   charge's net value (value − Asaas's fee) are a 400 `invalid_split`;
 * - the parts are kept on the charge and answered by every read (`split[]` with `status`);
 * - when the charge is received (Pix: at once), each part is credited to its wallet's own balance
 *   (`GET /v3/finance/balance` with that account's key) and only the rest, net of the fee, to the
 *   charge's account. A card's CONFIRMED releases no balance in the emulator (transfers.ts), so its
 *   parts stay `AWAITING_CREDIT` like the account's own money.
 * Emulator assumptions (no primary source settles them): `percentualValue` is not emulated (400);
 * on a refund Asaas takes back from each credited part its proportional share of the refund,
 * rounded down to the cent (the charge's account bears the rounding), so a full refund takes back
 * every part exactly, and a wallet whose money was already withdrawn goes negative (Asaas would
 * block it). The error texts are the emulator's own.
 */
import { asaasErrors } from './asaas-errors';
import type { Account } from './emulator-state';
import { Reais, reaisTextToCents } from './money-json';
import type { Body } from './request-fields';

export type SplitStatus = 'PENDING' | 'AWAITING_CREDIT' | 'DONE';

export interface StoredSplit {
  id: string;
  walletId: string;
  /** The emulator account whose wallet it is (credited on payment). */
  accountId: string;
  valueCents: number;
  status: SplitStatus;
  /** Taken back from the wallet by refunds so far. */
  refundedCents: number;
}

/** Asaas's limit is not documented; the emulator takes as many as the platform may send. */
const MAX_PARTS = 20;

/**
 * The parts of a create body, validated as Asaas refuses them; `[]` without `split`.
 * `walletOf` finds the account of a wallet; `netCents` is what the charge leaves after the fee.
 */
export function parseSplit(body: Body, caller: Account, netCents: number, walletOf: (walletId: string) => Account | undefined, newId: () => string): StoredSplit[] {
  const raw = body['split'];
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw asaasErrors.invalid('split', 'O campo split deve ser uma lista de {walletId, fixedValue}.');
  if (raw.length > MAX_PARTS) throw asaasErrors.invalid('split', `O split aceita no máximo ${MAX_PARTS} carteiras.`);
  const parts = raw.map((item: unknown, index): StoredSplit => {
    const part = (item ?? {}) as Record<string, unknown>;
    const walletId = part['walletId'];
    if (typeof walletId !== 'string' || walletId.length === 0) throw asaasErrors.invalid('split', `Informe o walletId do item ${index + 1} do split.`);
    if (part['percentualValue'] !== undefined && part['percentualValue'] !== null) {
      throw asaasErrors.invalid('split', 'Emulador: percentualValue não é emulado; informe fixedValue.');
    }
    const fixed = part['fixedValue'];
    const valueCents = typeof fixed === 'string' ? reaisTextToCents(fixed) : undefined;
    if (valueCents === undefined || valueCents <= 0) throw asaasErrors.invalid('split', `O fixedValue do item ${index + 1} do split é inválido.`);
    const account = walletOf(walletId);
    if (!account) throw asaasErrors.invalid('split', `A carteira [${walletId}] não foi encontrada.`);
    if (account.id === caller.id) throw asaasErrors.invalid('split', 'Não é possível fazer split para a sua própria carteira.');
    return { id: newId(), walletId, accountId: account.id, valueCents, status: 'PENDING', refundedCents: 0 };
  });
  const total = parts.reduce((sum, p) => sum + p.valueCents, 0);
  if (total > netCents) {
    throw asaasErrors.invalid('split', `O valor total do split (R$ ${(total / 100).toFixed(2)}) excede o valor líquido da cobrança (R$ ${(netCents / 100).toFixed(2)}).`);
  }
  return parts;
}

export function splitTotal(parts: readonly StoredSplit[] | undefined): number {
  return (parts ?? []).reduce((sum, p) => sum + p.valueCents, 0);
}

/**
 * What a refund takes back from each credited part: its share of everything refunded so far
 * (floor(part × refunded ÷ value)) minus what was already taken. Exact at a full refund.
 */
export function reversalsFor(parts: readonly StoredSplit[] | undefined, valueCents: number, refundedSoFarCents: number): { part: StoredSplit; cents: number }[] {
  return (parts ?? [])
    .filter((p) => p.status === 'DONE')
    .map((part) => ({ part, cents: Number((BigInt(part.valueCents) * BigInt(refundedSoFarCents)) / BigInt(valueCents)) - part.refundedCents }))
    .filter((r) => r.cents > 0);
}

export function splitJson(part: StoredSplit) {
  return {
    id: part.id,
    walletId: part.walletId,
    fixedValue: new Reais(part.valueCents),
    percentualValue: null,
    totalValue: new Reais(part.valueCents),
    cancellationReason: null,
    status: part.status,
    externalReference: null,
    description: null,
  };
}
