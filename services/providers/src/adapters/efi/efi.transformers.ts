/**
 * Efí (Banco Central API Pix) wire types and pure conversions: cents ↔ "12.34", our charge input
 * → `PUT /v2/cob/:txid` body, a cob → ProviderCharge (exhaustive status map), and the webhook body
 * → the txids it names. No I/O here; the error table is efi.errors.ts.
 */
import { assertNever, assertPositiveCents, centsToReaisString, numericTaxId, reaisStringToCents } from '@orquestra/platform';
import { createHash } from 'node:crypto';
import {
  type CreateChargeInput,
  type ProviderCharge,
  type ProviderChargeStatus,
  type ProviderRefund,
  type ProviderRefundStatus,
} from '../provider-adapter';

// ---------------------------------------------------------------------------------------------
// Wire types (Banco Central API Pix v2 as Efí serves it)
// ---------------------------------------------------------------------------------------------

export type EfiCobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

export interface EfiDevedor {
  cpf?: string;
  cnpj?: string;
  nome: string;
}

export interface EfiCobRequest {
  calendario: { expiracao: number };
  devedor?: EfiDevedor;
  valor: { original: string };
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: { nome: string; valor: string }[];
}

export interface EfiPix {
  endToEndId: string;
  txid?: string;
  valor: string;
  horario: string;
  infoPagador?: string;
  chave?: string;
  devolucoes?: EfiDevolucao[];
}

export type EfiDevolucaoStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

/** `PUT /v2/pix/:e2eId/devolucao/:id` body (Banco Central `DevolucaoSolicitada`). */
export interface EfiDevolucaoRequest {
  valor: string;
  /** ORIGINAL: return of a received Pix (MD06); RETIRADA: of a Pix Saque/Troco (SL02). */
  natureza?: 'ORIGINAL' | 'RETIRADA';
  descricao?: string;
}

/** A devolução as the API answers it, and as webhooks and `pix[].devolucoes[]` carry it. */
export interface EfiDevolucao {
  id: string;
  rtrId?: string;
  valor: string;
  natureza?: string;
  descricao?: string;
  horario?: { solicitacao?: string; liquidacao?: string };
  status: EfiDevolucaoStatus;
  motivo?: string;
}

export interface EfiCob {
  calendario: { criacao: string; expiracao: number | string };
  txid: string;
  revisao: number;
  /** Absent in some GET answers (Efí's own example of GET /v2/cob/:txid has only `location`). */
  loc?: { id: number; location: string; tipoCob: string };
  location?: string;
  status: EfiCobStatus;
  devedor?: EfiDevedor;
  valor: { original: string };
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: { nome: string; valor: string }[];
  pixCopiaECola?: string;
  pix?: EfiPix[];
}

export interface EfiQrCode {
  qrcode: string;
  imagemQrcode: string;
  linkVisualizacao?: string;
}

export interface EfiTokenResponse {
  access_token: string;
  token_type: string;
  expires_in: number;
  scope?: string;
}

// ---------------------------------------------------------------------------------------------
// Money: integer cents ↔ "12.34", by string arithmetic only
// ---------------------------------------------------------------------------------------------

/** 1234 → "12.34"; the `valor` format `\d{1,10}\.\d{2}`. */
export function centsToValor(cents: number): string {
  assertPositiveCents(cents, 'amount');
  const valor = centsToReaisString(cents);
  if (valor.length - 3 > 10) throw new RangeError(`amount ${cents} exceeds the 10 integer digits of a Pix valor`);
  return valor;
}

/** "12.34" → 1234. Exactly two decimals, as the spec writes them; never parsed as a float. */
export function valorToCents(valor: string): number {
  if (!/^\d{1,10}\.\d{2}$/.test(valor)) throw new RangeError(`not a Pix valor: ${JSON.stringify(valor)}`);
  return reaisStringToCents(valor);
}

// ---------------------------------------------------------------------------------------------
// Charge request
// ---------------------------------------------------------------------------------------------

/**
 * The txid of the charge for an idempotency key: 32 lowercase hex characters of
 * SHA-256(key), inside `[a-zA-Z0-9]{26,35}`. The same key always names the same charge, so a
 * repeated create finds the existing one instead of making a second (txid is unique per account).
 */
export function txidForIdempotencyKey(idempotencyKey: string): string {
  return createHash('sha256').update(`orquestra:efi:cob:${idempotencyKey}`).digest('hex').slice(0, 32);
}

/**
 * `devedor` only with a name and a valid CPF or CNPJ: the spec requires `nome` with exactly one
 * document, and Efí rejects the whole charge ("Documento CPF em devedor.cpf é inválido") for a bad
 * one. The payer can pay without it, so a charge without `devedor` beats no charge.
 */
export function devedorFor(customer: CreateChargeInput['customer']): EfiDevedor | undefined {
  const nome = customer.name.trim().slice(0, 200);
  if (!nome) return undefined;
  const taxId = numericTaxId(customer.document);
  if (taxId?.kind === 'cpf') return { cpf: taxId.value, nome };
  if (taxId?.kind === 'cnpj') return { cnpj: taxId.value, nome };
  return undefined;
}

/** Banco Central limits: ≤ 50 entries, `nome` ≤ 50 and `valor` ≤ 200 characters. */
const INFO_ADICIONAIS_MAX = { items: 50, nome: 50, valor: 200 };
const SOLICITACAO_PAGADOR_MAX = 140;

/** Cuts a string to `max` characters without splitting a surrogate pair. */
export function truncate(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : chars.slice(0, max).join('');
}

export function buildCobRequest(input: CreateChargeInput, chave: string): EfiCobRequest {
  const devedor = devedorFor(input.customer);
  const description = input.description?.trim();
  const infoAdicionais = Object.entries(input.metadata)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, INFO_ADICIONAIS_MAX.items)
    .map(([nome, valor]) => ({ nome: truncate(nome, INFO_ADICIONAIS_MAX.nome), valor: truncate(valor, INFO_ADICIONAIS_MAX.valor) }));
  return {
    calendario: { expiracao: input.expiresInSeconds },
    ...(devedor ? { devedor } : {}),
    valor: { original: centsToValor(input.amount) },
    chave,
    ...(description ? { solicitacaoPagador: truncate(description, SOLICITACAO_PAGADOR_MAX) } : {}),
    ...(infoAdicionais.length > 0 ? { infoAdicionais } : {}),
  };
}

// ---------------------------------------------------------------------------------------------
// Charge response
// ---------------------------------------------------------------------------------------------

interface StatusMapping {
  status: ProviderChargeStatus;
  failureCode?: string;
  failureReason?: string;
}

/** Every Banco Central cob status; a new one fails to compile here. */
export function mapCobStatus(status: EfiCobStatus): StatusMapping {
  switch (status) {
    case 'ATIVA':
      return { status: 'pending' };
    case 'CONCLUIDA':
      return { status: 'paid' };
    case 'REMOVIDA_PELO_USUARIO_RECEBEDOR':
      return { status: 'canceled' };
    case 'REMOVIDA_PELO_PSP':
      // Expired (or removed by Efí): no longer payable, and nobody declined it.
      return { status: 'canceled', failureCode: 'expired', failureReason: 'Cobrança removida pelo PSP (expirada)' };
    default:
      return assertNever(status);
  }
}

/** `expiracao` arrives as a number or, in Efí's GET answers, a numeric string. */
export function expirationSeconds(expiracao: number | string): number | undefined {
  const seconds = typeof expiracao === 'number' ? expiracao : /^\d+$/.test(expiracao) ? Number(expiracao) : NaN;
  return Number.isSafeInteger(seconds) ? seconds : undefined;
}

/** Strips the data-URL prefix of a PNG `imagemQrcode`; other image types are not passed on. */
export function pngBase64(imagemQrcode: string | undefined): string | undefined {
  const match = /^data:image\/png;base64,(.+)$/s.exec(imagemQrcode ?? '');
  return match?.[1];
}

// ---------------------------------------------------------------------------------------------
// Devoluções as answered (alone, or inside a cob's pix)
// ---------------------------------------------------------------------------------------------

/** Every Banco Central devolução status; a new one fails to compile here. */
export function mapDevolucaoStatus(status: EfiDevolucaoStatus): ProviderRefundStatus {
  switch (status) {
    case 'EM_PROCESSAMENTO':
      return 'pending';
    case 'DEVOLVIDO':
      return 'succeeded';
    case 'NAO_REALIZADO':
      return 'failed';
    default:
      return assertNever(status);
  }
}

export function toProviderRefund(devolucao: EfiDevolucao): ProviderRefund {
  const status = mapDevolucaoStatus(devolucao.status);
  const requestedAt = Date.parse(devolucao.horario?.solicitacao ?? '');
  return {
    providerRefundId: devolucao.id,
    // The devolução id is chosen by whoever asked for it: for ours it is our key.
    refundKey: devolucao.id,
    amount: valorToCents(devolucao.valor),
    status,
    ...(status === 'failed' ? { failureCode: 'refund_not_completed', failureReason: devolucao.motivo ?? 'Devolução não realizada' } : {}),
    ...(devolucao.descricao ? { reason: devolucao.descricao } : {}),
    ...(Number.isFinite(requestedAt) ? { createdAt: new Date(requestedAt) } : {}),
  };
}

export function toProviderCharge(cob: EfiCob, qr?: EfiQrCode): ProviderCharge {
  const mapping = mapCobStatus(cob.status);
  const pix = cob.pix ?? [];
  const criacao = Date.parse(cob.calendario.criacao);
  const expiracao = expirationSeconds(cob.calendario.expiracao);
  const firstPaid = pix[0];
  const qrCodeBase64 = pngBase64(qr?.imagemQrcode);
  const qrCode = cob.pixCopiaECola ?? qr?.qrcode;
  return {
    providerPaymentId: cob.txid,
    status: mapping.status,
    amount: valorToCents(cob.valor.original),
    amountPaid: mapping.status === 'paid' ? pix.reduce((sum, p) => sum + valorToCents(p.valor), 0) : 0,
    nextAction:
      mapping.status === 'pending' && qrCode
        ? { type: 'pix_qr', qrCode, ...(qrCodeBase64 ? { qrCodeBase64 } : {}) }
        : { type: 'none' },
    ...(Number.isFinite(criacao) && expiracao !== undefined ? { expiresAt: new Date(criacao + expiracao * 1000) } : {}),
    ...(firstPaid && mapping.status === 'paid' ? { paidAt: new Date(firstPaid.horario), endToEndId: firstPaid.endToEndId } : {}),
    ...(mapping.failureCode ? { failureCode: mapping.failureCode } : {}),
    ...(mapping.failureReason ? { failureReason: mapping.failureReason } : {}),
    ...(pix.some((p) => (p.devolucoes ?? []).length > 0) ? { refunds: pix.flatMap((p) => (p.devolucoes ?? []).map(toProviderRefund)) } : {}),
  };
}
