/**
 * Splits of a Pix charge (`splits: [{value (cents), pixKey, splitType}]` on `POST /api/v1/charge`),
 * as developers.woovi.com "Split de pagamento para subcontas" describes them:
 * - `SPLIT_SUB_ACCOUNT` parts name a subaccount of the account by its Pix key; an unknown key, a
 *   value that is not a positive integer of cents, or parts adding up to more than what the charge
 *   leaves after Woovi's fee are a 400 `{error}`;
 * - the parts are kept on the charge and answered by every read (`splits[]`);
 * - when the charge is paid, each part is credited to its subaccount's `balance` (a "virtual"
 *   movement until the subaccount is withdrawn) and only the rest, net of the fee, to the account;
 * - a refund comes from the account's own balance: the subaccounts keep their parts (the emulator's
 *   reading of Woovi's docs, where split money is the subaccount's once the charge is paid).
 * Emulator assumptions: `SPLIT_PARTNER` (another company) is not emulated (400); the error texts
 * are the emulator's own.
 */
import { z } from 'zod';
import type { SubaccountBook } from './subaccounts';
import { wooviErrors } from './woovi-errors';

export interface StoredSplit {
  pixKey: string;
  value: number;
  splitType: 'SPLIT_SUB_ACCOUNT';
}

/** Woovi documents no limit; the emulator takes as many as the platform may send. */
const MAX_PARTS = 20;

const splitsSchema = z
  .array(
    z.object({
      value: z.number({ required_error: 'splits[].value é obrigatório' }).int('splits[].value deve ser um inteiro em centavos').positive('splits[].value deve ser maior que zero'),
      pixKey: z.string({ required_error: 'splits[].pixKey é obrigatório' }).min(1, 'splits[].pixKey é obrigatório'),
      splitType: z.string().optional(),
    }),
    { invalid_type_error: 'splits deve ser uma lista' },
  )
  .max(MAX_PARTS, `splits aceita no máximo ${MAX_PARTS} itens`);

/** The parts of a create body, validated against the account's subaccounts; `[]` without `splits`. */
export function parseSplits(raw: unknown, accountId: string, netValue: number, subaccounts: SubaccountBook): StoredSplit[] {
  if (raw === undefined || raw === null) return [];
  const parsed = splitsSchema.safeParse(raw);
  if (!parsed.success) throw wooviErrors.invalid(parsed.error.issues[0]?.message ?? 'splits inválido');
  const parts = parsed.data.map((part): StoredSplit => {
    const splitType = part.splitType ?? 'SPLIT_SUB_ACCOUNT';
    if (splitType !== 'SPLIT_SUB_ACCOUNT') throw wooviErrors.invalid(`Emulador: splitType ${splitType} não é emulado; use SPLIT_SUB_ACCOUNT`);
    if (!subaccounts.get(accountId, part.pixKey)) throw wooviErrors.invalid(`Subconta não encontrada para a chave Pix ${part.pixKey}`);
    return { pixKey: part.pixKey, value: part.value, splitType };
  });
  const total = parts.reduce((sum, p) => sum + p.value, 0);
  if (total > netValue) throw wooviErrors.invalid(`A soma dos splits (${total}) é maior que o valor líquido da cobrança (${netValue})`);
  return parts;
}

export function splitsTotal(parts: readonly StoredSplit[] | undefined): number {
  return (parts ?? []).reduce((sum, p) => sum + p.value, 0);
}

export const splitJson = (part: StoredSplit) => ({ value: part.value, pixKey: part.pixKey, splitType: part.splitType });
