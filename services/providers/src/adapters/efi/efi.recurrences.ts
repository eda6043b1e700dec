/**
 * Efí Pix Automático calls, given the adapter's authenticated `api` (efi.adapter.ts delegates
 * here). Journey 2 (a recurrence QR only) when nothing is paid at approval, journey 3 (one QR that
 * pays an immediate `cob` and approves the recurrence) otherwise; we send each cycle's `cobr`.
 *
 * Idempotency: a `cob` and a `cobr` take a txid derived from our id, so a repeat finds them. A
 * `rec` gets its id from Efí, so a create first looks for a recurrence whose `vinculo.contrato` is
 * our subscription id. The list needs a creation window: a recurrence is created on or before its
 * first due date, so the window is the year up to `dataInicial`, whatever the clocks say.
 */
import { ProviderError } from '../provider-adapter';
import type { Dispatcher } from 'undici';
import type { HttpAnswer } from '../http/provider-http';
import type { RequestPurpose } from '../http/transport-errors';
import type { ProviderCharge } from '../provider-adapter';
import type {
  CreateCycleChargeInput,
  CreateRecurrenceInput,
  ProviderCycleCharge,
  ProviderRecurrence,
  RetryCycleChargeInput,
} from '../provider-recurrences';
import { qrPngBase64 } from '../qr-png';
import { errorName, providerErrorFor } from './efi.errors';
import {
  activationTxidFor,
  buildCobrRequest,
  buildRecRequest,
  cycleTxidFor,
  devedorOf,
  toProviderCycleCharge,
  toProviderRecurrence,
  type EfiCobr,
  type EfiRec,
} from './efi.recurrences.transformers';
import { centsToValor, toProviderRefund, truncate, valorToCents, type EfiCob, type EfiCobRequest, type EfiPix } from './efi.transformers';

type Api = (method: Dispatcher.HttpMethod, path: string, purpose: RequestPurpose | 'read' | 'write', body?: unknown, extraHeaders?: Record<string, string>) => Promise<HttpAnswer>;

/** A recurrence and its QR are created like a Pix: approving needs the QR our answer carries. */
const CREATE_PIX: RequestPurpose = { operation: 'create', method: 'pix' };
/** A cycle charge is debited without anyone showing a code: a lost answer is ambiguous (transport-errors.ts). */
const CREATE_DEBIT: RequestPurpose = { operation: 'create', method: 'pix_automatico' };
const LOOKUP_DAYS = 366;

const rejected = (what: string, err: unknown) => new ProviderError('rejected', 'provider_rejected', `efi ${what}: ${(err as Error).message}`);

export class EfiRecurrences {
  constructor(
    private readonly api: Api,
    private readonly chave: string,
  ) {}

  async create(input: CreateRecurrenceInput): Promise<ProviderRecurrence> {
    const existing = await this.findByContract(input.subscriptionId, input.startDate);
    if (existing) return this.withQr(existing);
    const firstAmount = input.firstAmount ?? 0;
    let cob: EfiCobRequest | undefined;
    try {
      // Checked before anything is created: a bad document or amount fails the same everywhere.
      buildRecRequest(input, 0);
      if (firstAmount > 0) cob = this.activationCob(input, firstAmount);
    } catch (err) {
      throw rejected('create rec', err);
    }
    const txid = cob ? activationTxidFor(input.subscriptionId) : undefined;
    if (cob && txid) await this.putActivationCob(txid, cob, firstAmount);
    const loc = await this.api('POST', '/v2/locrec', CREATE_PIX, {});
    if (loc.status !== 201 && loc.status !== 200) throw providerErrorFor(loc.status, loc.body, 'create locrec');
    const created = await this.api('POST', '/v2/rec', CREATE_PIX, buildRecRequest(input, (loc.body as { id: number }).id, txid));
    if (created.status !== 201 && created.status !== 200) throw providerErrorFor(created.status, created.body, 'create rec');
    return this.withQr(created.body as EfiRec);
  }

  async get(idRec: string): Promise<ProviderRecurrence> {
    return this.withQr(await this.readRec(idRec));
  }

  /** Cancels the recurrence and, while pending in journey 3, its immediate charge (else paying it would take money for nothing). */
  async cancel(idRec: string): Promise<ProviderRecurrence> {
    const answer = await this.api('PATCH', `/v2/rec/${encodeURIComponent(idRec)}`, 'write', { status: 'CANCELADA' });
    // Already final (refused, expired, canceled): answer it as it is.
    if (answer.status !== 200 && errorName(answer.body) !== 'RecOperacaoInvalida') throw providerErrorFor(answer.status, answer.body, 'cancel rec');
    const rec = answer.status === 200 ? (answer.body as EfiRec) : await this.readRec(idRec);
    const txid = rec.ativacao?.dadosJornada?.txid;
    if (txid && rec.status === 'CANCELADA') {
      const removed = await this.api('PATCH', `/v2/cob/${encodeURIComponent(txid)}`, 'write', { status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' });
      // Already paid or removed: nothing left to stop.
      if (removed.status !== 200 && errorName(removed.body) !== 'status_cobranca_invalido') throw providerErrorFor(removed.status, removed.body, 'remove activation cob');
    }
    return toProviderRecurrence(rec);
  }

  /** `PUT /cobr/:txid` with the txid of our payment id; a repeat reads the charge the first call made. */
  async createCycleCharge(input: CreateCycleChargeInput): Promise<ProviderCycleCharge> {
    let body;
    try {
      body = buildCobrRequest(input.providerRecurrenceId, input.amount, input.dueDate, input.description);
    } catch (err) {
      throw rejected('create cobr', err);
    }
    const txid = cycleTxidFor(input.paymentId);
    const path = `/v2/cobr/${txid}`;
    const answer = await this.api('PUT', path, CREATE_DEBIT, body);
    if (answer.status === 201 || answer.status === 200) return toProviderCycleCharge(answer.body as EfiCobr);
    const error = providerErrorFor(answer.status, answer.body, 'create cobr');
    if (error.kind === 'rejected') {
      const earlier = await this.api('GET', path, 'read').catch(() => undefined);
      const cobr = earlier?.status === 200 ? (earlier.body as EfiCobr) : undefined;
      if (cobr && cobr.idRec === input.providerRecurrenceId && cobr.valor.original === body.valor.original) return toProviderCycleCharge(cobr);
    }
    throw error;
  }

  async getCycleCharge(txid: string): Promise<ProviderCycleCharge> {
    const answer = await this.api('GET', `/v2/cobr/${encodeURIComponent(txid)}`, 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get cobr');
    return toProviderCycleCharge(answer.body as EfiCobr);
  }

  /**
   * A paid cycle charge as a paid Pix charge, with the devoluções of the Pix its settled attempt
   * received (`GET /v2/pix/:e2eId`): Efí's Pix webhook names a cobr's txid when a devolução of it
   * settles, and the intake reads it back through `getCharge` like a cob's. Undefined when no cobr
   * has this txid or it is not paid (its debits and retries are reported as cycle charges).
   */
  async paidCobrAsCharge(txid: string): Promise<ProviderCharge | undefined> {
    const answer = await this.api('GET', `/v2/cobr/${encodeURIComponent(txid)}`, 'read');
    if (answer.status === 404) return undefined;
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get cobr');
    const cycle = toProviderCycleCharge(answer.body as EfiCobr);
    if (cycle.status !== 'paid' || !cycle.endToEndId) return undefined;
    const read = await this.api('GET', `/v2/pix/${encodeURIComponent(cycle.endToEndId)}`, 'read');
    if (read.status !== 200) throw providerErrorFor(read.status, read.body, 'get pix');
    const pix = read.body as EfiPix;
    const refunds = (pix.devolucoes ?? []).map(toProviderRefund);
    return {
      providerPaymentId: txid,
      status: 'paid',
      amount: cycle.amount,
      amountPaid: valorToCents(pix.valor),
      nextAction: { type: 'none' },
      paidAt: new Date(pix.horario),
      endToEndId: pix.endToEndId,
      ...(refunds.length > 0 ? { refunds } : {}),
    };
  }

  /** `POST /cobr/:txid/retentativa/:data`: refusals (no retries left, a date outside the 7 days) are `rejected`. */
  async retryCycleCharge(input: RetryCycleChargeInput): Promise<ProviderCycleCharge> {
    const answer = await this.api('POST', `/v2/cobr/${encodeURIComponent(input.providerChargeId)}/retentativa/${encodeURIComponent(input.date)}`, 'write');
    if (answer.status !== 200 && answer.status !== 201) throw providerErrorFor(answer.status, answer.body, 'retry cobr');
    return toProviderCycleCharge(answer.body as EfiCobr);
  }

  /** `PUT /webhookrec` and `/webhookcobr` with the URL the Pix webhook uses (Efí appends `/rec`, `/cobr`). */
  async registerWebhooks(webhookUrl: string): Promise<void> {
    for (const kind of ['rec', 'cobr'] as const) {
      const answer = await this.api('PUT', `/v2/webhook${kind}`, 'write', { webhookUrl }, { 'x-skip-mtls-checking': 'true' });
      if (answer.status !== 200 && answer.status !== 201 && answer.status !== 204) throw providerErrorFor(answer.status, answer.body, `register webhook${kind}`);
    }
  }

  private activationCob(input: CreateRecurrenceInput, firstAmount: number): EfiCobRequest {
    const description = input.description.trim();
    return {
      calendario: { expiracao: input.approvalExpiresInSeconds },
      devedor: devedorOf(input.payer),
      valor: { original: centsToValor(firstAmount) },
      chave: this.chave,
      ...(description ? { solicitacaoPagador: truncate(description, 140) } : {}),
    };
  }

  /** The journey-3 `cob`; a repeat finds the one already made under the same txid. */
  private async putActivationCob(txid: string, cob: EfiCobRequest, firstAmount: number): Promise<void> {
    const answer = await this.api('PUT', `/v2/cob/${txid}`, CREATE_PIX, cob);
    if (answer.status === 201 || answer.status === 200) return;
    if (errorName(answer.body) !== 'txid_duplicado') throw providerErrorFor(answer.status, answer.body, 'create activation cob');
    const existing = await this.api('GET', `/v2/cob/${txid}`, 'read');
    if (existing.status !== 200) throw providerErrorFor(existing.status, existing.body, 'get activation cob');
    if (valorToCents((existing.body as EfiCob).valor.original) !== firstAmount) {
      throw new ProviderError('rejected', 'provider_rejected', `efi create rec: txid ${txid} already holds a charge of another amount`);
    }
  }

  private async findByContract(contrato: string, dataInicial: string): Promise<EfiRec | undefined> {
    const fim = new Date(`${dataInicial}T23:59:59-03:00`);
    const inicio = new Date(fim.getTime() - LOOKUP_DAYS * 86_400_000);
    const query = new URLSearchParams({ inicio: inicio.toISOString(), fim: fim.toISOString() });
    const answer = await this.api('GET', `/v2/rec?${query.toString()}`, 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list rec');
    const recs = (answer.body as { recs?: EfiRec[] }).recs ?? [];
    return recs.find((r) => r.vinculo.contrato === contrato);
  }

  private async readRec(idRec: string, txid?: string): Promise<EfiRec> {
    const query = txid ? `?txid=${encodeURIComponent(txid)}` : '';
    const answer = await this.api('GET', `/v2/rec/${encodeURIComponent(idRec)}${query}`, 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get rec');
    return answer.body as EfiRec;
  }

  /** A pending recurrence with its QR: journey 3's combined one needs the immediate charge's txid. */
  private async withQr(rec: EfiRec): Promise<ProviderRecurrence> {
    if (rec.status !== 'CRIADA') return toProviderRecurrence(rec);
    const txid = rec.ativacao?.dadosJornada?.txid;
    const full = rec.dadosQR && !txid ? rec : await this.readRec(rec.idRec, txid);
    const code = full.dadosQR?.pixCopiaECola;
    return toProviderRecurrence(full, code ? await qrPngBase64(code) : undefined);
  }
}
