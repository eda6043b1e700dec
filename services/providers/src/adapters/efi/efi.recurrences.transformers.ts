/**
 * Efí Pix Automático wire types and pure conversions (Banco Central API Pix ≥ v2.7 as Efí serves
 * it under `/v2`, psp-apis.md §0, §8): our recurrence input → `POST /rec` body, a `rec` and a
 * `cobr` → ours (exhaustive status maps), the ids derived from ours, and the `webhookrec` /
 * `webhookcobr` bodies → events. No I/O here; the calls are efi.recurrences.ts.
 */
import { assertNever, numericTaxId } from '@orquestra/platform';
import { createHash } from 'node:crypto';
import type {
  CreateRecurrenceInput,
  CycleChargeStatus,
  ProviderCycleCharge,
  ProviderRecurrence,
  RecurrenceEvent,
  RecurrenceFrequency,
  RecurrenceStatus,
} from '../provider-recurrences';
import { webhookObject } from '../webhook-body';
import { centsToValor, truncate, valorToCents, type EfiDevedor } from './efi.transformers';

export type EfiPeriodicidade = 'SEMANAL' | 'MENSAL' | 'TRIMESTRAL' | 'SEMESTRAL' | 'ANUAL';
export type EfiRecStatus = 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA';
export type EfiCobrStatus = 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA';
export type EfiTentativaStatus = 'AGENDADA' | 'LIQUIDADA' | 'FALHA' | 'CANCELADA';

export interface EfiRecRequest {
  vinculo: { contrato: string; devedor: EfiDevedor; objeto?: string };
  calendario: { dataInicial: string; dataFinal?: string; periodicidade: EfiPeriodicidade };
  valor?: { valorRec: string };
  politicaRetentativa: 'NAO_PERMITE' | 'PERMITE_3R_7D';
  loc: number;
  ativacao?: { dadosJornada: { txid: string } };
}

export interface EfiRec {
  idRec: string;
  vinculo: { contrato: string; devedor?: EfiDevedor; objeto?: string };
  calendario: { dataInicial: string; dataFinal?: string; periodicidade: EfiPeriodicidade };
  valor?: { valorRec?: string; valorMinimoRecebedor?: string };
  politicaRetentativa: string;
  loc?: { id: number; location: string };
  ativacao?: { dadosJornada?: { txid?: string } };
  status: EfiRecStatus;
  /** `GET /rec/:idRec` while pending: the QR of journey 2, or of journey 3 with `?txid=`. */
  dadosQR?: { pixCopiaECola: string; jornada: string };
}

export interface EfiTentativa {
  dataLiquidacao: string;
  tipo: string;
  status: EfiTentativaStatus;
  endToEndId?: string;
}

export interface EfiCobrRequest {
  idRec: string;
  calendario: { dataDeVencimento: string };
  valor: { original: string };
  /** A due date on a weekend or holiday moves to the next business day (the spec's default, said aloud). */
  ajusteDiaUtil: true;
  infoAdicional?: string;
}

export interface EfiCobr {
  idRec: string;
  txid: string;
  calendario: { dataDeVencimento: string };
  valor: { original: string };
  status: EfiCobrStatus;
  tentativas?: EfiTentativa[];
}

const PERIODICIDADE: Record<RecurrenceFrequency, EfiPeriodicidade> = {
  weekly: 'SEMANAL',
  monthly: 'MENSAL',
  quarterly: 'TRIMESTRAL',
  semiannually: 'SEMESTRAL',
  annually: 'ANUAL',
};

/** Banco Central limits: `contrato` and `objeto` ≤ 35 characters, `infoAdicional` ≤ 140. */
const CONTRATO_MAX = 35;
const OBJETO_MAX = 35;
const INFO_ADICIONAL_MAX = 140;

/** A txid (`[a-zA-Z0-9]{26,35}`) derived from one of our ids: the same id always names the same charge. */
function derivedTxid(kind: 'rec-cob' | 'cobr', id: string): string {
  return createHash('sha256').update(`orquestra:efi:${kind}:${id}`).digest('hex').slice(0, 32);
}

/** Journey 3: the immediate charge whose payment approves the recurrence of this subscription. */
export const activationTxidFor = (subscriptionId: string) => derivedTxid('rec-cob', subscriptionId);

/** The recurring charge (`cobr`) of one cycle, by our payment id. */
export const cycleTxidFor = (paymentId: string) => derivedTxid('cobr', paymentId);

export function devedorOf(payer: CreateRecurrenceInput['payer']): EfiDevedor {
  const taxId = numericTaxId(payer.document);
  const nome = truncate(payer.name.trim(), 140);
  if (!taxId || !nome) throw new RangeError('the payer needs a name and a valid CPF or CNPJ');
  return taxId.kind === 'cpf' ? { cpf: taxId.value, nome } : { cnpj: taxId.value, nome };
}

/**
 * The `POST /rec` body. Journey 2 (`loc` only) when nothing is paid at approval, journey 3 (`loc`
 * and the immediate charge's txid) otherwise. Retries allowed → PERMITE_3R_7D.
 */
export function buildRecRequest(input: CreateRecurrenceInput, loc: number, activationTxid?: string): EfiRecRequest {
  if (input.subscriptionId.length > CONTRATO_MAX) throw new RangeError(`subscription id longer than ${CONTRATO_MAX} characters`);
  const objeto = truncate(input.description.trim(), OBJETO_MAX);
  return {
    vinculo: { contrato: input.subscriptionId, devedor: devedorOf(input.payer), ...(objeto ? { objeto } : {}) },
    calendario: { dataInicial: input.startDate, ...(input.endDate ? { dataFinal: input.endDate } : {}), periodicidade: PERIODICIDADE[input.frequency] },
    ...(input.amount !== undefined ? { valor: { valorRec: centsToValor(input.amount) } } : {}),
    politicaRetentativa: input.retry ? 'PERMITE_3R_7D' : 'NAO_PERMITE',
    loc,
    ...(activationTxid ? { ativacao: { dadosJornada: { txid: activationTxid } } } : {}),
  };
}

export function buildCobrRequest(idRec: string, amount: number, dueDate: string, description: string | undefined): EfiCobrRequest {
  const info = description?.trim();
  return {
    idRec,
    calendario: { dataDeVencimento: dueDate },
    valor: { original: centsToValor(amount) },
    ajusteDiaUtil: true,
    ...(info ? { infoAdicional: truncate(info, INFO_ADICIONAL_MAX) } : {}),
  };
}

/** Every recurrence status of the spec; a new one fails to compile here. */
export function mapRecStatus(status: EfiRecStatus): RecurrenceStatus {
  switch (status) {
    case 'CRIADA':
      return 'pending';
    case 'APROVADA':
      return 'active';
    case 'REJEITADA':
      return 'refused';
    case 'EXPIRADA':
      return 'expired';
    case 'CANCELADA':
      return 'canceled';
    default:
      return assertNever(status);
  }
}

/**
 * A `cobr` → our cycle status. ATIVA is `retrying` once an attempt failed: a retry is scheduled,
 * or the receiver may still ask for one (`retentativa`); the charge turns EXPIRADA when it no longer can.
 */
export function mapCobrStatus(cobr: Pick<EfiCobr, 'status' | 'tentativas'>): CycleChargeStatus {
  const { status } = cobr;
  switch (status) {
    case 'CRIADA':
      return 'scheduled';
    case 'ATIVA':
      return (cobr.tentativas ?? []).some((t) => t.status === 'FALHA') ? 'retrying' : 'scheduled';
    case 'CONCLUIDA':
      return 'paid';
    case 'EXPIRADA':
    case 'REJEITADA':
      return 'failed';
    case 'CANCELADA':
      return 'canceled';
    default:
      return assertNever(status);
  }
}

export function toProviderRecurrence(rec: EfiRec, qrCodeBase64?: string): ProviderRecurrence {
  const status = mapRecStatus(rec.status);
  const qrCode = status === 'pending' ? rec.dadosQR?.pixCopiaECola : undefined;
  const approvalChargeId = rec.ativacao?.dadosJornada?.txid;
  return {
    providerRecurrenceId: rec.idRec,
    status,
    providerStatus: rec.status,
    cycles: 'ours',
    ...(qrCode ? { approval: { qrCode, ...(qrCodeBase64 ? { qrCodeBase64 } : {}) } } : {}),
    ...(approvalChargeId ? { approvalChargeId } : {}),
  };
}

export function toProviderCycleCharge(cobr: EfiCobr): ProviderCycleCharge {
  const attempts = cobr.tentativas ?? [];
  const next = attempts.find((t) => t.status === 'AGENDADA');
  const paid = attempts.find((t) => t.status === 'LIQUIDADA');
  return {
    providerChargeId: cobr.txid,
    providerRecurrenceId: cobr.idRec,
    status: mapCobrStatus(cobr),
    providerStatus: cobr.status,
    amount: valorToCents(cobr.valor.original),
    dueDate: cobr.calendario.dataDeVencimento,
    failedAttempts: attempts.filter((t) => t.status === 'FALHA').length,
    ...(next ? { nextAttemptDate: next.dataLiquidacao } : {}),
    ...(paid?.endToEndId ? { endToEndId: paid.endToEndId } : {}),
  };
}

const REC_STATUSES: readonly string[] = ['CRIADA', 'APROVADA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'];
const COBR_STATUSES: readonly string[] = ['CRIADA', 'ATIVA', 'CONCLUIDA', 'EXPIRADA', 'REJEITADA', 'CANCELADA'];

export type ParsedEfiRecurrenceWebhook = { kind: 'events'; events: RecurrenceEvent[]; eventKey: string } | { kind: 'other' } | { kind: 'malformed' };

/**
 * `<webhookrec>/rec` posts `{"recs":[…]}` and `<webhookcobr>/cobr` posts `{"cobsr":[…]}` (each item
 * as `GET /rec/:idRec` / `GET /cobr/:txid` answer it). The event key is the content (ids, statuses,
 * attempts), so Efí's retries of one notification dedupe and a later change does not. A body with
 * neither (a Pix notification, the registration test) is `other`.
 */
export function parseEfiRecurrenceWebhookBody(rawBody: Buffer): ParsedEfiRecurrenceWebhook {
  const body = webhookObject(rawBody);
  if (!body) return { kind: 'malformed' };
  const { recs, cobsr } = body as { recs?: unknown; cobsr?: unknown };
  if (recs === undefined && cobsr === undefined) return { kind: 'other' };
  const events: RecurrenceEvent[] = [];
  const identities: string[] = [];
  for (const item of Array.isArray(recs) ? recs : recs === undefined ? [] : [null]) {
    const rec = item as Partial<EfiRec> | null;
    if (typeof rec?.idRec !== 'string' || !REC_STATUSES.includes(String(rec.status))) return { kind: 'malformed' };
    const status = rec.status as EfiRecStatus;
    events.push({ type: 'recurrence', providerRecurrenceId: rec.idRec, status: mapRecStatus(status), providerStatus: status });
    identities.push(`rec|${rec.idRec}|${status}`);
  }
  for (const item of Array.isArray(cobsr) ? cobsr : cobsr === undefined ? [] : [null]) {
    const cobr = item as Partial<EfiCobr> | null;
    if (typeof cobr?.txid !== 'string' || !COBR_STATUSES.includes(String(cobr.status))) return { kind: 'malformed' };
    const tentativas = Array.isArray(cobr.tentativas) ? cobr.tentativas : [];
    const status = cobr.status as EfiCobrStatus;
    events.push({
      type: 'cycle',
      providerChargeId: cobr.txid,
      ...(typeof cobr.idRec === 'string' ? { providerRecurrenceId: cobr.idRec } : {}),
      status: mapCobrStatus({ status, tentativas }),
      providerStatus: status,
    });
    identities.push(`cobr|${cobr.txid}|${status}|${tentativas.map((t) => `${t.dataLiquidacao}:${t.status}`).join(',')}`);
  }
  if (events.length === 0) return { kind: 'malformed' };
  const digest = createHash('sha256').update(identities.sort().join('\n')).digest('hex').slice(0, 32);
  return { kind: 'events', events, eventKey: `efi:rec:${digest}` };
}
