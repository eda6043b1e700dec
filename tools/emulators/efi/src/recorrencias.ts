/**
 * Pix Automático as the Banco Central API Pix defines it and Efí serves it under `/v2`
 * (psp-apis.md §0, §8): recurrences (`rec`), approval requests (`solicrec`), recurring charges
 * (`cobr`) with their attempts, recurrence locations (`locrec`) and the two webhook URLs
 * (`webhookrec`, `webhookcobr`). The records and their rules live here; the routes
 * (recorrencias.routes.ts) and the simulated payer's bank (recorrencias-control.routes.ts) call in.
 *
 * Decisions where the sources are silent (each also said where it applies):
 * - The payer's bank is the control port: it receives an approval request at once (CRIADA →
 *   ENVIADA → RECEBIDA), accepts a charge's schedule at once (cobr CRIADA → ATIVA with one AGND
 *   attempt on the due date, moved to the next business day when `ajusteDiaUtil`), and pays or
 *   fails an attempt only when told, never before the attempt's date.
 * - A failed attempt leaves the charge ATIVA while the receiver may still ask for a retry
 *   (`PERMITE_3R_7D`, fewer than 3 retries, a date left within 7 calendar days after the due
 *   date); otherwise, or once that window has passed unpaid, the charge is EXPIRADA.
 * - Attempt types: AGND (the scheduled one), NTAG (a retry the receiver asked for); attempt
 *   statuses AGENDADA, LIQUIDADA, FALHA (paid / not paid), CANCELADA (unconfirmed names).
 * - An approval request not answered by `dataExpiracaoSolicitacao` is EXPIRADA, and so is its
 *   recurrence while still CRIADA; a journey-3 recurrence whose immediate charge expired is EXPIRADA.
 * - Cancelling a recurrence cancels its live approval request and its charges not yet paid.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { addDays, cycleIndexOf, daysBetween, inSendingWindow, nextBusinessDay, refill, saoPauloDate, type Frequency } from '../../kit';
import { newEndToEndId } from './pix-ids';
import { recErrors } from './recorrencias-errors';

export type Periodicidade = 'SEMANAL' | 'MENSAL' | 'TRIMESTRAL' | 'SEMESTRAL' | 'ANUAL';
export type RecStatus = 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA';
export type SolicRecStatus = 'CRIADA' | 'ENVIADA' | 'RECEBIDA' | 'ACEITA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA';
export type CobrStatus = 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA';
export type Jornada = 'JORNADA_1' | 'JORNADA_2' | 'JORNADA_3';
export type PoliticaRetentativa = 'NAO_PERMITE' | 'PERMITE_3R_7D';

const FREQUENCY: Record<Periodicidade, Frequency> = { SEMANAL: 'WEEKLY', MENSAL: 'MONTHLY', TRIMESTRAL: 'QUARTERLY', SEMESTRAL: 'SEMIANNUALLY', ANUAL: 'ANNUALLY' };
export const EFI_ISPB = '09089356';
/** Efí S.A.'s CNPJ, the receiving institution shown in `recebedor`. */
export const EFI_CNPJ = '09089356000118';
/** Retries after the scheduled attempt, and the calendar days after the due date they may use (PERMITE_3R_7D). */
const MAX_RETRIES = 3;
const RETRY_DAYS = 7;
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

export interface Devedor {
  cpf?: string;
  cnpj?: string;
  nome: string;
}

export interface Atualizacao<S> {
  status: S;
  data: string;
}

export interface StoredRec {
  clientId: string;
  idRec: string;
  vinculo: { contrato: string; devedor: Devedor; objeto?: string };
  calendario: { dataInicial: string; dataFinal?: string; periodicidade: Periodicidade };
  valor?: { valorRec?: string; valorMinimoRecebedor?: string };
  politicaRetentativa: PoliticaRetentativa;
  locId?: number;
  /** Journey 3: the immediate charge whose payment approves the recurrence. */
  txidAtivacao?: string;
  status: RecStatus;
  atualizacao: Atualizacao<RecStatus>[];
  criacao: Date;
}

export interface StoredSolicRec {
  clientId: string;
  idSolicRec: string;
  idRec: string;
  dataExpiracaoSolicitacao: string;
  destinatario: { cpf?: string; cnpj?: string; conta: string; ispbParticipante: string; agencia?: string };
  status: SolicRecStatus;
  atualizacao: Atualizacao<SolicRecStatus>[];
}

export interface Tentativa {
  dataLiquidacao: string;
  tipo: 'AGND' | 'NTAG';
  status: 'AGENDADA' | 'LIQUIDADA' | 'FALHA' | 'CANCELADA';
  endToEndId: string;
  motivo?: string;
}

export interface StoredCobr {
  clientId: string;
  txid: string;
  idRec: string;
  criacao: Date;
  dataDeVencimento: string;
  valorOriginal: string;
  ajusteDiaUtil: boolean;
  infoAdicional?: string;
  devedor?: Record<string, string>;
  recebedor?: Record<string, string>;
  status: CobrStatus;
  atualizacao: Atualizacao<CobrStatus>[];
  tentativas: Tentativa[];
}

export interface StoredLocRec {
  clientId: string;
  id: number;
  location: string;
  criacao: Date;
  idRec?: string;
}

export interface RecurrenceWebhook {
  webhookUrl: string;
  criacao: Date;
}

/** What changed, for the webhooks: recurrences to `<webhookrec>/rec`, charges to `<webhookcobr>/cobr`. */
export interface Changes {
  recs: StoredRec[];
  cobrs: StoredCobr[];
}

export interface NewRec {
  vinculo: StoredRec['vinculo'];
  calendario: StoredRec['calendario'];
  valor?: StoredRec['valor'];
  politicaRetentativa: PoliticaRetentativa;
  loc?: number;
  txidAtivacao?: string;
}

export interface NewCobr {
  idRec: string;
  dataDeVencimento: string;
  valorOriginal: string;
  ajusteDiaUtil: boolean;
  infoAdicional?: string;
  devedor?: Record<string, string>;
  recebedor?: Record<string, string>;
}

function alnum(count: number): string {
  let out = '';
  for (let i = 0; i < count; i += 1) out += ALNUM[randomInt(ALNUM.length)];
  return out;
}

const toCents = (valor: string) => Math.round(Number(valor) * 100);
/** The spec: a cycle takes one CobR besides REJEITADA and CANCELADA ones (an EXPIRADA one still counts). */
const liveCobr = (status: CobrStatus) => status !== 'REJEITADA' && status !== 'CANCELADA';

export class RecurrenceBook {
  private readonly recs = new Map<string, StoredRec>();
  private readonly solicrecs = new Map<string, StoredSolicRec>();
  /** `clientId\0txid` → charge: a txid is unique per receiving account. */
  private readonly cobrs = new Map<string, StoredCobr>();
  private readonly locrecs = new Map<number, StoredLocRec>();
  /** `clientId\0rec|cobr` → the URL the notifications go to. */
  private readonly webhooks = new Map<string, RecurrenceWebhook>();
  private nextLocRecId = 1;

  constructor(private readonly now: () => Date) {}

  private today(): string {
    return saoPauloDate(this.now());
  }

  private stamp<S>(record: { status: S; atualizacao: Atualizacao<S>[] }, status: S): void {
    record.status = status;
    record.atualizacao.push({ status, data: this.now().toISOString() });
  }

  // --- recurrences --------------------------------------------------------------------------

  /** `R` + `R`|`N` (retries allowed or not) + ISPB (8) + `yyyyMMdd` + 11 alphanumerics: 29 characters. */
  private newIdRec(politica: PoliticaRetentativa): string {
    return `R${politica === 'PERMITE_3R_7D' ? 'R' : 'N'}${EFI_ISPB}${this.today().replace(/-/g, '')}${alnum(11)}`;
  }

  createRec(clientId: string, request: NewRec, activationCobActive: (txid: string) => boolean): StoredRec {
    if (request.calendario.dataInicial < this.today()) throw recErrors.operacaoInvalida('Rec', 'A data inicial é anterior à data de criação da recorrência.', 'calendario.dataInicial');
    if (request.calendario.dataFinal !== undefined && request.calendario.dataFinal < request.calendario.dataInicial) {
      throw recErrors.operacaoInvalida('Rec', 'A data final é anterior à data inicial.', 'calendario.dataFinal');
    }
    const loc = request.loc === undefined ? undefined : this.locrecs.get(request.loc);
    if (request.loc !== undefined) {
      if (!loc || loc.clientId !== clientId) throw recErrors.operacaoInvalida('Rec', 'A location informada não existe.', 'loc');
      if (loc.idRec !== undefined) throw recErrors.operacaoInvalida('Rec', 'A location informada já está sendo utilizada por outra recorrência.', 'loc');
    }
    if (request.txidAtivacao !== undefined && !activationCobActive(request.txidAtivacao)) {
      throw recErrors.operacaoInvalida('Rec', 'A cobrança imediata informada não existe ou não está ATIVA.', 'ativacao.dadosJornada.txid');
    }
    const rec: StoredRec = {
      clientId,
      idRec: this.newIdRec(request.politicaRetentativa),
      vinculo: request.vinculo,
      calendario: request.calendario,
      ...(request.valor ? { valor: request.valor } : {}),
      politicaRetentativa: request.politicaRetentativa,
      ...(request.loc !== undefined ? { locId: request.loc } : {}),
      ...(request.txidAtivacao !== undefined ? { txidAtivacao: request.txidAtivacao } : {}),
      status: 'CRIADA',
      atualizacao: [],
      criacao: this.now(),
    };
    this.stamp(rec, 'CRIADA');
    this.recs.set(rec.idRec, rec);
    if (loc) loc.idRec = rec.idRec;
    return rec;
  }

  getRec(clientId: string, idRec: string): StoredRec {
    const rec = this.recs.get(idRec);
    if (!rec || rec.clientId !== clientId) throw recErrors.naoEncontrado('Rec', 'Recorrência não encontrada para o idRec informado.');
    return rec;
  }

  /** Any client's recurrence (the simulated payer's bank knows it by id alone). */
  findRec(idRec: string): StoredRec | undefined {
    return this.recs.get(idRec);
  }

  listRecs(clientId: string, inicio: Date, fim: Date, status?: string): StoredRec[] {
    return [...this.recs.values()].filter((r) => r.clientId === clientId && r.criacao >= inicio && r.criacao <= fim && (!status || r.status === status));
  }

  jornada(rec: StoredRec): Jornada {
    if (rec.txidAtivacao !== undefined) return 'JORNADA_3';
    return rec.locId !== undefined ? 'JORNADA_2' : 'JORNADA_1';
  }

  locationOf(rec: StoredRec): StoredLocRec | undefined {
    return rec.locId === undefined ? undefined : this.locrecs.get(rec.locId);
  }

  /** The receiver cancels (PATCH status CANCELADA): its live approval request and unpaid charges go too. */
  cancelRec(rec: StoredRec): Changes {
    if (rec.status !== 'CRIADA' && rec.status !== 'APROVADA') throw recErrors.operacaoInvalida('Rec', `A recorrência está ${rec.status} e não pode ser cancelada.`, 'status');
    this.stamp(rec, 'CANCELADA');
    for (const solicrec of this.solicrecs.values()) {
      if (solicrec.idRec === rec.idRec && !this.solicRecFinal(solicrec)) this.stamp(solicrec, 'CANCELADA');
    }
    const cobrs = this.cobrsOf(rec.idRec).filter((c) => c.status === 'CRIADA' || c.status === 'ATIVA');
    for (const cobr of cobrs) this.cancelCobrRecord(cobr);
    return { recs: [rec], cobrs };
  }

  /** The payer approves in the bank app (journeys 1 and 2) or by paying the immediate charge (journey 3). */
  approve(rec: StoredRec): Changes {
    if (rec.status !== 'CRIADA') throw recErrors.operacaoInvalida('Rec', `A recorrência está ${rec.status}.`, 'status');
    this.stamp(rec, 'APROVADA');
    for (const solicrec of this.solicrecs.values()) {
      if (solicrec.idRec === rec.idRec && !this.solicRecFinal(solicrec)) this.stamp(solicrec, 'ACEITA');
    }
    return { recs: [rec], cobrs: [] };
  }

  refuse(rec: StoredRec): Changes {
    if (rec.status !== 'CRIADA') throw recErrors.operacaoInvalida('Rec', `A recorrência está ${rec.status}.`, 'status');
    this.stamp(rec, 'REJEITADA');
    for (const solicrec of this.solicrecs.values()) {
      if (solicrec.idRec === rec.idRec && !this.solicRecFinal(solicrec)) this.stamp(solicrec, 'REJEITADA');
    }
    return { recs: [rec], cobrs: [] };
  }

  /** Journey 3: the recurrence whose immediate charge this is, when still waiting for it. */
  recActivatedBy(clientId: string, txid: string): StoredRec | undefined {
    return [...this.recs.values()].find((r) => r.clientId === clientId && r.txidAtivacao === txid && r.status === 'CRIADA');
  }

  // --- approval requests (journey 1) --------------------------------------------------------

  private solicRecFinal(solicrec: StoredSolicRec): boolean {
    return ['ACEITA', 'REJEITADA', 'EXPIRADA', 'CANCELADA'].includes(solicrec.status);
  }

  /** `SC` + ISPB (8) + `yyyyMMdd` + 11 alphanumerics: 29 characters, like an idRec. */
  createSolicRec(clientId: string, request: Omit<StoredSolicRec, 'clientId' | 'idSolicRec' | 'status' | 'atualizacao'>): StoredSolicRec {
    const rec = this.getRec(clientId, request.idRec);
    if (rec.status !== 'CRIADA') throw recErrors.operacaoInvalida('SolicRec', `A recorrência está ${rec.status}.`, 'idRec');
    if (this.jornada(rec) === 'JORNADA_3') throw recErrors.operacaoInvalida('SolicRec', 'A recorrência é ativada pelo pagamento da cobrança imediata (jornada 3).', 'idRec');
    if ([...this.solicrecs.values()].some((s) => s.idRec === rec.idRec && !this.solicRecFinal(s))) {
      throw recErrors.operacaoInvalida('SolicRec', 'Existe uma solicitação ativa referente ao mesmo idRec.', 'idRec');
    }
    if (Date.parse(request.dataExpiracaoSolicitacao) <= this.now().getTime()) {
      throw recErrors.operacaoInvalida('SolicRec', 'A data de expiração é anterior à data de criação da solicitação.', 'calendario.dataExpiracaoSolicitacao');
    }
    const solicrec: StoredSolicRec = { ...request, clientId, idSolicRec: `SC${EFI_ISPB}${this.today().replace(/-/g, '')}${alnum(11)}`, status: 'CRIADA', atualizacao: [] };
    this.stamp(solicrec, 'CRIADA');
    this.solicrecs.set(solicrec.idSolicRec, solicrec);
    return solicrec;
  }

  /** The payer's bank receives the request right after it is created (the answer still shows CRIADA). */
  deliverSolicRec(solicrec: StoredSolicRec): void {
    this.stamp(solicrec, 'ENVIADA');
    this.stamp(solicrec, 'RECEBIDA');
  }

  getSolicRec(clientId: string, id: string): StoredSolicRec {
    const solicrec = this.solicrecs.get(id);
    if (!solicrec || solicrec.clientId !== clientId) throw recErrors.naoEncontrado('SolicRec', 'Solicitação de recorrência não encontrada para o idSolicRec informado.');
    return solicrec;
  }

  cancelSolicRec(solicrec: StoredSolicRec): void {
    if (this.solicRecFinal(solicrec)) throw recErrors.operacaoInvalida('SolicRec', 'Não é possível cancelar uma solicitação com status diferente de CRIADA, ENVIADA ou RECEBIDA.', 'status');
    this.stamp(solicrec, 'CANCELADA');
  }

  // --- recurring charges --------------------------------------------------------------------

  private cobrKey(clientId: string, txid: string): string {
    return `${clientId}\u0000${txid}`;
  }

  /** Every recurring charge of a recurrence, whatever its status (the control port lists them). */
  cobrsOf(idRec: string): StoredCobr[] {
    return [...this.cobrs.values()].filter((c) => c.idRec === idRec);
  }

  createCobr(clientId: string, txid: string, request: NewCobr): StoredCobr {
    if (this.cobrs.has(this.cobrKey(clientId, txid))) throw recErrors.operacaoInvalida('CobR', 'O txid encontra-se em uso.', 'txid');
    const rec = this.getRec(clientId, request.idRec);
    if (rec.status !== 'APROVADA') throw recErrors.operacaoInvalida('CobR', `A recorrência está ${rec.status}: só uma recorrência APROVADA aceita cobranças.`, 'idRec');
    const due = request.dataDeVencimento;
    const today = this.today();
    if (!inSendingWindow(today, due)) {
      throw recErrors.operacaoInvalida('CobR', 'A cobrança deve ser enviada de 2 a 10 dias antes da data de vencimento.', 'calendario.dataDeVencimento');
    }
    const { dataInicial, dataFinal, periodicidade } = rec.calendario;
    if (due < dataInicial || (dataFinal !== undefined && due > dataFinal)) {
      throw recErrors.operacaoInvalida('CobR', 'A data de vencimento está fora da vigência da recorrência.', 'calendario.dataDeVencimento');
    }
    const cents = toCents(request.valorOriginal);
    if (rec.valor?.valorRec !== undefined && cents !== toCents(rec.valor.valorRec)) {
      throw recErrors.operacaoInvalida('CobR', 'O valor da cobrança difere do valor fixo da recorrência.', 'valor.original');
    }
    if (rec.valor?.valorMinimoRecebedor !== undefined && cents < toCents(rec.valor.valorMinimoRecebedor)) {
      throw recErrors.operacaoInvalida('CobR', 'O valor da cobrança é menor que o valor mínimo da recorrência.', 'valor.original');
    }
    const frequency = FREQUENCY[periodicidade];
    const cycle = cycleIndexOf(dataInicial, frequency, due);
    if (this.cobrsOf(rec.idRec).some((c) => liveCobr(c.status) && cycleIndexOf(dataInicial, frequency, c.dataDeVencimento) === cycle)) {
      throw recErrors.operacaoInvalida('CobR', 'Existe uma CobR com status diferente de REJEITADA e CANCELADA referente ao mesmo idRec com dataDeVencimento no mesmo ciclo.', 'calendario.dataDeVencimento');
    }
    const cobr: StoredCobr = {
      clientId,
      txid,
      idRec: rec.idRec,
      criacao: this.now(),
      dataDeVencimento: due,
      valorOriginal: request.valorOriginal,
      ajusteDiaUtil: request.ajusteDiaUtil,
      ...(request.infoAdicional !== undefined ? { infoAdicional: request.infoAdicional } : {}),
      ...(request.devedor ? { devedor: request.devedor } : {}),
      ...(request.recebedor ? { recebedor: request.recebedor } : {}),
      status: 'CRIADA',
      atualizacao: [],
      tentativas: [],
    };
    this.stamp(cobr, 'CRIADA');
    this.cobrs.set(this.cobrKey(clientId, txid), cobr);
    return cobr;
  }

  /** The payer's bank schedules the first attempt as soon as it receives the charge. */
  scheduleCobr(cobr: StoredCobr): Changes {
    this.stamp(cobr, 'ATIVA');
    const date = cobr.ajusteDiaUtil ? nextBusinessDay(cobr.dataDeVencimento) : cobr.dataDeVencimento;
    cobr.tentativas.push({ dataLiquidacao: date, tipo: 'AGND', status: 'AGENDADA', endToEndId: newEndToEndId(this.now()) });
    return { recs: [], cobrs: [cobr] };
  }

  getCobr(clientId: string, txid: string): StoredCobr {
    const cobr = this.cobrs.get(this.cobrKey(clientId, txid));
    if (!cobr) throw recErrors.naoEncontrado('CobR', 'Cobrança não encontrada para o txid informado.');
    return cobr;
  }

  /** Charges with this txid across clients (the payer's bank acts by txid alone when unambiguous). */
  findCobrs(txid: string): StoredCobr[] {
    return [...this.cobrs.values()].filter((c) => c.txid === txid);
  }

  listCobrs(clientId: string, inicio: Date, fim: Date, filter: { status?: string; idRec?: string }): StoredCobr[] {
    return [...this.cobrs.values()].filter(
      (c) => c.clientId === clientId && c.criacao >= inicio && c.criacao <= fim && (!filter.status || c.status === filter.status) && (!filter.idRec || c.idRec === filter.idRec),
    );
  }

  private cancelCobrRecord(cobr: StoredCobr): void {
    for (const tentativa of cobr.tentativas) if (tentativa.status === 'AGENDADA') tentativa.status = 'CANCELADA';
    this.stamp(cobr, 'CANCELADA');
  }

  /** The receiver cancels (PATCH): only before the date of the first settlement attempt, as the spec says. */
  cancelCobr(cobr: StoredCobr): Changes {
    const first = cobr.tentativas[0]?.dataLiquidacao;
    if (first !== undefined && this.today() >= first) throw recErrors.operacaoInvalida('CobR', 'Não é possível cancelar uma cobrança em uma data igual ou maior que a data prevista da primeira tentativa de liquidação.', 'status');
    if (cobr.status !== 'CRIADA' && cobr.status !== 'ATIVA') throw recErrors.operacaoInvalida('CobR', `A cobrança está ${cobr.status} e não pode ser cancelada.`, 'status');
    this.cancelCobrRecord(cobr);
    return { recs: [], cobrs: [cobr] };
  }

  private scheduledAttempt(cobr: StoredCobr): Tentativa {
    const attempt = cobr.status === 'ATIVA' ? cobr.tentativas.find((t) => t.status === 'AGENDADA') : undefined;
    if (!attempt) throw recErrors.operacaoInvalida('CobR', `A cobrança está ${cobr.status} sem tentativa agendada.`);
    if (attempt.dataLiquidacao > this.today()) throw recErrors.operacaoInvalida('CobR', `A tentativa está agendada para ${attempt.dataLiquidacao}.`);
    return attempt;
  }

  /** The payer's bank settles the scheduled attempt: the charge is paid. */
  pay(cobr: StoredCobr): Changes {
    const attempt = this.scheduledAttempt(cobr);
    attempt.status = 'LIQUIDADA';
    this.stamp(cobr, 'CONCLUIDA');
    return { recs: [], cobrs: [cobr] };
  }

  /** The scheduled attempt fails (no balance, say): retries stay possible or the charge expires. */
  fail(cobr: StoredCobr, motivo: string): Changes {
    const attempt = this.scheduledAttempt(cobr);
    attempt.status = 'FALHA';
    attempt.motivo = motivo;
    if (!this.retryPossible(cobr)) this.stamp(cobr, 'EXPIRADA');
    return { recs: [], cobrs: [cobr] };
  }

  /** The payer's bank refuses to schedule the charge (the payer blocked it, a limit): REJEITADA. */
  reject(cobr: StoredCobr): Changes {
    if (cobr.status !== 'CRIADA' && cobr.status !== 'ATIVA') throw recErrors.operacaoInvalida('CobR', `A cobrança está ${cobr.status}.`);
    for (const tentativa of cobr.tentativas) if (tentativa.status === 'AGENDADA') tentativa.status = 'CANCELADA';
    this.stamp(cobr, 'REJEITADA');
    return { recs: [], cobrs: [cobr] };
  }

  private retryPossible(cobr: StoredCobr): boolean {
    const rec = this.recs.get(cobr.idRec);
    if (rec?.politicaRetentativa !== 'PERMITE_3R_7D') return false;
    const retries = cobr.tentativas.filter((t) => t.tipo === 'NTAG').length;
    const lastDay = addDays(cobr.dataDeVencimento, RETRY_DAYS);
    const usedUpTo = cobr.tentativas.reduce((last, t) => (t.dataLiquidacao > last ? t.dataLiquidacao : last), this.today());
    return retries < MAX_RETRIES && usedUpTo < lastDay;
  }

  /**
   * `POST /cobr/{txid}/retentativa/{data}`: the receiver asks for another attempt after a failed
   * one, on a later date within 7 calendar days after the due date, at most 3 times.
   */
  requestRetry(cobr: StoredCobr, data: string): StoredCobr {
    const rec = this.recs.get(cobr.idRec);
    if (rec?.politicaRetentativa !== 'PERMITE_3R_7D') throw recErrors.operacaoInvalida('CobR', 'A política configurada na recorrência não permite retentativa de cobrança.');
    if (cobr.status !== 'ATIVA') throw recErrors.operacaoInvalida('CobR', `A cobrança está ${cobr.status}.`);
    if (cobr.tentativas.some((t) => t.status === 'AGENDADA')) throw recErrors.operacaoInvalida('CobR', 'Existe uma tentativa com status SOLICITADA ou AGENDADA.');
    if (cobr.tentativas.filter((t) => t.tipo === 'NTAG').length >= MAX_RETRIES) throw recErrors.operacaoInvalida('CobR', 'O limite de 3 retentativas foi atingido.');
    const offset = daysBetween(cobr.dataDeVencimento, data);
    if (offset < 1 || offset > RETRY_DAYS) throw recErrors.operacaoInvalida('CobR', 'A retentativa deve ocorrer em até 7 dias corridos após o vencimento.', 'data');
    if (data <= this.today() || cobr.tentativas.some((t) => t.dataLiquidacao >= data)) {
      throw recErrors.operacaoInvalida('CobR', 'O parâmetro data não corresponde a uma data futura posterior às tentativas anteriores.', 'data');
    }
    cobr.tentativas.push({ dataLiquidacao: data, tipo: 'NTAG', status: 'AGENDADA', endToEndId: newEndToEndId(this.now()) });
    return cobr;
  }

  // --- time passing -------------------------------------------------------------------------

  /**
   * What the passing of time did: approval requests past their expiry (and their recurrences
   * still CRIADA), journey-3 recurrences whose immediate charge expired, charges left unpaid after
   * their retry window.
   */
  expireDue(cobStillActive: (clientId: string, txid: string) => boolean): Changes {
    const changes: Changes = { recs: [], cobrs: [] };
    const now = this.now().getTime();
    for (const solicrec of this.solicrecs.values()) {
      if (this.solicRecFinal(solicrec) || Date.parse(solicrec.dataExpiracaoSolicitacao) > now) continue;
      this.stamp(solicrec, 'EXPIRADA');
      const rec = this.recs.get(solicrec.idRec);
      if (rec?.status === 'CRIADA') {
        this.stamp(rec, 'EXPIRADA');
        changes.recs.push(rec);
      }
    }
    for (const rec of this.recs.values()) {
      if (rec.status === 'CRIADA' && rec.txidAtivacao !== undefined && !cobStillActive(rec.clientId, rec.txidAtivacao)) {
        this.stamp(rec, 'EXPIRADA');
        changes.recs.push(rec);
      }
    }
    const today = this.today();
    for (const cobr of this.cobrs.values()) {
      if (cobr.status !== 'ATIVA' || cobr.tentativas.some((t) => t.status === 'AGENDADA')) continue;
      if (today > addDays(cobr.dataDeVencimento, RETRY_DAYS)) {
        this.stamp(cobr, 'EXPIRADA');
        changes.cobrs.push(cobr);
      }
    }
    return changes;
  }

  // --- locations ----------------------------------------------------------------------------

  createLocRec(clientId: string, locationHost: string): StoredLocRec {
    const loc: StoredLocRec = { clientId, id: this.nextLocRecId, location: `${locationHost}/v2/rec/${randomBytes(16).toString('hex')}`, criacao: this.now() };
    this.nextLocRecId += 1;
    this.locrecs.set(loc.id, loc);
    return loc;
  }

  getLocRec(clientId: string, id: number): StoredLocRec {
    const loc = this.locrecs.get(id);
    if (!loc || loc.clientId !== clientId) throw recErrors.naoEncontrado('PayloadLocationRec', 'Location não encontrada para o id informado.');
    return loc;
  }

  listLocRecs(clientId: string, inicio: Date, fim: Date): StoredLocRec[] {
    return [...this.locrecs.values()].filter((l) => l.clientId === clientId && l.criacao >= inicio && l.criacao <= fim);
  }

  // --- webhooks -----------------------------------------------------------------------------

  setWebhook(clientId: string, kind: 'rec' | 'cobr', webhookUrl: string): void {
    this.webhooks.set(`${clientId}\u0000${kind}`, { webhookUrl, criacao: this.now() });
  }

  getWebhook(clientId: string, kind: 'rec' | 'cobr'): RecurrenceWebhook | undefined {
    return this.webhooks.get(`${clientId}\u0000${kind}`);
  }

  deleteWebhook(clientId: string, kind: 'rec' | 'cobr'): boolean {
    return this.webhooks.delete(`${clientId}\u0000${kind}`);
  }

  // --- persistence, stats and reset ---------------------------------------------------------

  counts() {
    return { recs_stored: this.recs.size, solicrecs_stored: this.solicrecs.size, cobrs_stored: this.cobrs.size, locrecs_stored: this.locrecs.size };
  }

  /** Forgets recurrences and their charges; the webhook URLs are account set-up and stay. */
  clear(): void {
    this.recs.clear();
    this.solicrecs.clear();
    this.cobrs.clear();
    this.locrecs.clear();
  }

  snapshot() {
    return { recs: this.recs, solicrecs: this.solicrecs, cobrs: this.cobrs, locrecs: this.locrecs, webhooks: this.webhooks, nextLocRecId: this.nextLocRecId };
  }

  restore(snapshot: ReturnType<RecurrenceBook['snapshot']>): void {
    refill(this.recs, snapshot.recs);
    refill(this.solicrecs, snapshot.solicrecs);
    refill(this.cobrs, snapshot.cobrs);
    refill(this.locrecs, snapshot.locrecs);
    refill(this.webhooks, snapshot.webhooks);
    this.nextLocRecId = snapshot.nextLocRecId ?? 1;
  }
}
