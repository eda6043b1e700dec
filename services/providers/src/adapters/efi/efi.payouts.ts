/**
 * Efí payouts: the account's balance (`GET /v2/gn/saldo`) and Pix sent from it (`PUT
 * /v3/gn/pix/:idEnvio`, read back by `GET /v2/gn/pix/enviados/id-envio/:idEnvio`), psp-apis.md §1
 * and Efí's "Envio de Pix" docs. Efí pays only to Pix keys by API here: paying to a bank account
 * (`favorecido.contaBanco`) needs the holder's bank details, which our destinations do not carry.
 *
 * Never twice: the `idEnvio` is our payout id without its underscore (`po_01j…` → `po01j…`, inside
 * Efí's `^[a-zA-Z0-9]{1,35}$`), so a repeat names the same send and a lost answer is resolved by
 * reading that id; and back, so a webhook's `gnExtras.idEnvio` names our payout.
 */
import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import type { HttpAnswer } from '../http/provider-http';
import { ProviderError } from '../provider-adapter';
import type { CreateTransferInput, ProviderBalance, ProviderTransfer, TransferStatus } from '../provider-payouts';
import { webhookObject } from '../webhook-body';
import { providerErrorFor } from './efi.errors';
import { centsToValor, truncate, valorToCents } from './efi.transformers';

type Api = (method: Dispatcher.HttpMethod, path: string, purpose: 'read' | 'write', body?: unknown) => Promise<HttpAnswer>;

const ID_ENVIO_PATTERN = /^[a-zA-Z0-9]{1,35}$/;
const PAYOUT_ID_ENVIO = /^po([0-9a-z]{26})$/;
const INFO_PAGADOR_MAX = 140;

export type EfiEnvioStatus = 'EM_PROCESSAMENTO' | 'REALIZADO' | 'NAO_REALIZADO';

export interface EfiEnvioRequest {
  valor: string;
  pagador: { chave: string; infoPagador?: string };
  favorecido: { chave: string };
}

/** `PUT /v3/gn/pix/:idEnvio` answers `{idEnvio, e2eId, valor, horario{solicitacao}, status}`; the GET `endToEndId` and, once settled, `horario.liquidacao`. */
export interface EfiEnvio {
  idEnvio?: string;
  e2eId?: string;
  endToEndId?: string;
  valor: string;
  status: EfiEnvioStatus;
  horario?: { solicitacao?: string; liquidacao?: string };
  /** Why it was not made, where Efí says (unconfirmed field names: root `motivo`, or `gnExtras.erro`). */
  motivo?: string;
  gnExtras?: { idEnvio?: string; erro?: { codigo?: string; motivo?: string } };
}

export function idEnvioFor(payoutId: string): string {
  const id = payoutId.replace(/[^a-zA-Z0-9]/g, '');
  if (!ID_ENVIO_PATTERN.test(id)) throw new RangeError(`cannot make an idEnvio of ${JSON.stringify(payoutId)}`);
  return id;
}

/** Our payout id back from an idEnvio we made; undefined for a send made elsewhere (Efí's app). */
export function payoutIdOf(idEnvio: string): string | undefined {
  const match = PAYOUT_ID_ENVIO.exec(idEnvio);
  return match ? `po_${match[1]}` : undefined;
}

const STATUSES: Record<EfiEnvioStatus, TransferStatus> = { EM_PROCESSAMENTO: 'processing', REALIZADO: 'paid', NAO_REALIZADO: 'failed' };

export function toProviderTransfer(envio: EfiEnvio, idEnvio: string, payoutId: string): ProviderTransfer {
  const status = STATUSES[envio.status];
  if (!status) throw new ProviderError('not_created', 'provider_error', `efi payout: unknown status ${JSON.stringify(envio.status)}`);
  const endToEndId = envio.endToEndId ?? envio.e2eId;
  const reason = envio.motivo ?? envio.gnExtras?.erro?.motivo;
  return {
    providerTransferId: idEnvio,
    payoutId,
    status,
    providerStatus: envio.status,
    amount: valorToCents(envio.valor),
    ...(endToEndId ? { endToEndId } : {}),
    ...(status === 'paid' ? { paidAt: new Date(envio.horario?.liquidacao ?? envio.horario?.solicitacao ?? Date.now()) } : {}),
    ...(status === 'failed'
      ? { failureCode: envio.gnExtras?.erro?.codigo ?? 'NAO_REALIZADO', failureReason: reason ? `O Pix não foi realizado: ${reason}` : 'O Pix não foi realizado pela Efí.' }
      : {}),
  };
}

export function buildEnvioRequest(input: CreateTransferInput, chave: string): EfiEnvioRequest {
  if (input.destination.type !== 'pix_key') throw new RangeError('Efí pays only to Pix keys by API');
  const info = input.description?.trim();
  return {
    valor: centsToValor(input.amount),
    pagador: { chave, ...(info ? { infoPagador: truncate(info, INFO_PAGADOR_MAX) } : {}) },
    favorecido: { chave: input.destination.key },
  };
}

export class EfiPayouts {
  constructor(
    private readonly api: Api,
    private readonly chave: string,
  ) {}

  /** `{saldo: "12.34"}`: what can be sent now; Efí states no pending part here. */
  async balance(): Promise<ProviderBalance> {
    const answer = await this.api('GET', '/v2/gn/saldo', 'read');
    if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'balance');
    const saldo = (answer.body as { saldo?: unknown } | undefined)?.saldo;
    if (typeof saldo !== 'string') throw new ProviderError('not_created', 'provider_error', 'efi balance: answer without saldo', answer.status);
    return { available: valorToCents(saldo), currency: 'BRL', asOf: new Date() };
  }

  /**
   * The PUT under our idEnvio. A refusal may be Efí saying the idEnvio was used (our own earlier
   * attempt whose answer was lost): the send under that id, when it exists for the same amount, is
   * the answer; otherwise the refusal stands (insufficient balance is `insufficient_balance`).
   */
  async create(input: CreateTransferInput): Promise<ProviderTransfer> {
    let idEnvio: string;
    let body: EfiEnvioRequest;
    try {
      idEnvio = idEnvioFor(input.payoutId);
      body = buildEnvioRequest(input, this.chave);
    } catch (err) {
      throw new ProviderError('rejected', 'provider_rejected', `efi payout: ${(err as Error).message}`);
    }
    const answer = await this.api('PUT', `/v3/gn/pix/${idEnvio}`, 'write', body);
    if (answer.status === 200 || answer.status === 201) return toProviderTransfer(answer.body as EfiEnvio, idEnvio, input.payoutId);
    const error = refusalOf(answer);
    if (error.kind === 'rejected') {
      const existing = await this.read(idEnvio, input.payoutId).catch(() => undefined);
      if (existing && existing.amount === input.amount) return existing;
    }
    throw error;
  }

  get(payoutId: string): Promise<ProviderTransfer> {
    let idEnvio: string;
    try {
      idEnvio = idEnvioFor(payoutId);
    } catch {
      return Promise.reject(new ProviderError('not_found', 'not_found', `efi payout: no idEnvio for ${payoutId}`));
    }
    return this.read(idEnvio, payoutId);
  }

  private async read(idEnvio: string, payoutId: string): Promise<ProviderTransfer> {
    const answer = await this.api('GET', `/v2/gn/pix/enviados/id-envio/${idEnvio}`, 'read');
    if (answer.status === 200) return toProviderTransfer(answer.body as EfiEnvio, idEnvio, payoutId);
    throw providerErrorFor(answer.status, answer.body, 'get payout');
  }
}

/** Efí's refusal; a balance that does not cover the send is ours to name. */
function refusalOf(answer: HttpAnswer): ProviderError {
  const name = (answer.body as { nome?: unknown } | undefined)?.nome;
  if (name === 'saldo_insuficiente') return new ProviderError('rejected', 'insufficient_balance', `efi payout: HTTP ${answer.status} saldo_insuficiente`, answer.status);
  return providerErrorFor(answer.status, answer.body, 'payout');
}

/**
 * Efí's notification of a Pix sent (`POST <url>/pix`, `{"pix":[{endToEndId, valor, status, tipo,
 * gnExtras{idEnvio}, …}]}`): the sends it names (by `gnExtras.idEnvio`) and a key that changes with
 * their status, so a later REALIZADO of the same send is not taken for a retry of EM_PROCESSAMENTO.
 * A body about received Pix names no send.
 */
export function parseEfiEnvioWebhookBody(rawBody: Buffer): { kind: 'sends'; eventKey: string; sends: Array<{ idEnvio: string; payoutId?: string }> } | { kind: 'malformed' } {
  const body = webhookObject(rawBody);
  if (!body) return { kind: 'malformed' };
  const { pix } = body as { pix?: unknown };
  if (pix === undefined) return { kind: 'sends', eventKey: '', sends: [] };
  if (!Array.isArray(pix)) return { kind: 'malformed' };
  const sends: Array<{ idEnvio: string; payoutId?: string }> = [];
  const identities: string[] = [];
  for (const item of pix as unknown[]) {
    const { gnExtras, status, endToEndId } = (item ?? {}) as { gnExtras?: { idEnvio?: unknown }; status?: unknown; endToEndId?: unknown };
    const idEnvio = gnExtras?.idEnvio;
    if (typeof idEnvio !== 'string' || idEnvio.length === 0) continue;
    const payoutId = payoutIdOf(idEnvio);
    sends.push({ idEnvio, ...(payoutId ? { payoutId } : {}) });
    identities.push(`${idEnvio}|${String(endToEndId)}|${String(status)}`);
  }
  if (sends.length === 0) return { kind: 'sends', eventKey: '', sends: [] };
  const digest = createHash('sha256').update(identities.sort().join('\n')).digest('hex').slice(0, 32);
  return { kind: 'sends', eventKey: `efi:envio:${digest}`, sends };
}
