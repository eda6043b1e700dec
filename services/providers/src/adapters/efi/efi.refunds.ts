/**
 * Efí refunds (Banco Central devoluções): the request body and the id derived from our refund id.
 * A devolução as answered is read in efi.transformers.ts (a cob carries its devoluções).
 */
import { truncate, centsToValor, type EfiDevolucaoRequest } from './efi.transformers';

const DEVOLUCAO_ID_PATTERN = /^[a-zA-Z0-9]{1,35}$/;
const DESCRICAO_MAX = 140;

/**
 * The devolução id for our refund id: Banco Central ids are `[a-zA-Z0-9]{1,35}`, so `re_01j…`
 * becomes `re01j…` (28 characters). The same refund always names the same devolução, which is
 * what makes a repeated refund request safe.
 */
export function devolucaoIdFor(refundId: string): string {
  const id = refundId.replace(/[^a-zA-Z0-9]/g, '');
  if (!DEVOLUCAO_ID_PATTERN.test(id)) throw new RangeError(`cannot make a devolução id of ${JSON.stringify(refundId)}`);
  return id;
}

export function buildDevolucaoRequest(amount: number, reason: string | undefined): EfiDevolucaoRequest {
  const descricao = reason?.trim();
  return {
    valor: centsToValor(amount),
    natureza: 'ORIGINAL',
    ...(descricao ? { descricao: truncate(descricao, DESCRICAO_MAX) } : {}),
  };
}
