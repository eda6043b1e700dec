/**
 * Everything the emulator remembers, in memory: sandbox clients and their tokens, charges (each
 * client sees only its own), payload locations, webhook registrations, deliveries, stats, and
 * (in FaultRegistry) faults.
 * No HTTP here: routes call these methods and turn thrown EfiApiErrors into responses.
 */
import { timingSafeEqual, createHash } from 'node:crypto';
import type { CobRequest } from './cob-validation';
import { activityStats, EmulatorStateBase, refill, type DeliveryRecord } from '../../kit';
import { newAccessToken, newEndToEndId, newReturnId } from './pix-ids';
import { pixErrors } from './pix-errors';

export interface ClientRegistration {
  client_id: string;
  client_secret: string;
  /** The account's Pix key; charges and webhooks must use it. */
  chave: string;
}

export type CobStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP';

export type DevolucaoStatus = 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO';

/** A devolução (Banco Central `Devolucao`), as the API, the cob's `pix[]` and webhooks show it. */
export interface Devolucao {
  id: string;
  rtrId: string;
  valor: string;
  natureza: 'ORIGINAL' | 'RETIRADA';
  descricao?: string;
  horario: { solicitacao: string; liquidacao?: string };
  status: DevolucaoStatus;
  motivo?: string;
}

export interface PixRecebido {
  endToEndId: string;
  txid: string;
  valor: string;
  horario: string;
  infoPagador?: string;
  devolucoes?: Devolucao[];
}

/** How the emulator settles devoluções (control port): final status and delay. */
export interface RefundBehaviour {
  outcome: 'DEVOLVIDO' | 'NAO_REALIZADO';
  settleAfterMs: number;
}

export interface StoredCharge {
  clientId: string;
  txid: string;
  revisao: number;
  criacao: Date;
  request: CobRequest;
  status: CobStatus;
  loc: { id: number; location: string; tipoCob: 'cob' };
  pixCopiaECola: string;
  pix: PixRecebido[];
}

/**
 * What received Pix hang on, for devoluções, infrações and the Pix webhook: a cob (its `pix[]`) or
 * a paid Pix Automático charge (cobr), whose settled attempt is a received Pix like any other
 * (Banco Central `GET /pix/{e2eid}`: its `endToEndId` and the cobr's `txid`).
 */
export interface PixHolder {
  clientId: string;
  txid: string;
  /** The receiving key: the cob's, or the account's for a cobr (a cobr names none). */
  request: { chave: string };
  pix: PixRecebido[];
}

export interface WebhookRegistration {
  clientId: string;
  chave: string;
  webhookUrl: string;
  /** Whether the integrator sent `x-skip-mtls-checking: true` when registering. */
  skipMtlsChecking: boolean;
  criacao: Date;
}

export interface WebhookDelivery extends DeliveryRecord {
  id: number;
  /** `charge`: a Cobranças (boleto) notification (cobrancas.ts). */
  kind: 'pix' | 'envio' | 'rec' | 'cobr' | 'charge' | 'registration_test';
  clientId: string;
  /** The URL posted to, without its query string (it may carry the integrator's secret). */
  urlWithoutQuery: string;
  /** The txids notified (for `rec`, the idRecs; for `envio`, the idEnvios). */
  txids: string[];
}

const TOKEN_SCOPES =
  'cob.write cob.read pix.write pix.read webhook.write webhook.read payloadlocation.write payloadlocation.read ' +
  'rec.write rec.read solicrec.write solicrec.read cobr.write cobr.read payloadlocationrec.write payloadlocationrec.read ' +
  'webhookrec.write webhookrec.read webhookcobr.write webhookcobr.read pix.send gn.pix.send.read gn.balance.read';

/** "12.34" → 1234 (the API already checked the format). */
function toCents(valor: string): number {
  const [reais = '0', centavos = '00'] = valor.split('.');
  return Number(reais) * 100 + Number(centavos);
}

function fromCents(cents: number): string {
  const digits = String(Math.max(cents, 0)).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

function sameSecret(a: string, b: string): boolean {
  // Hash first so differing lengths do not leak through timingSafeEqual's length check.
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

export class EmulatorState extends EmulatorStateBase<WebhookDelivery> {
  private readonly clients = new Map<string, ClientRegistration>();
  private readonly tokens = new Map<string, { clientId: string; expiresAt: number }>();
  /** clientId → txid → charge: a txid is unique per receiving account, as the spec says. */
  private readonly charges = new Map<string, Map<string, StoredCharge>>();
  /** clientId → cobr txid → the Pix its settled attempt received (recordCobrPix). */
  private readonly cobrPix = new Map<string, Map<string, PixHolder>>();
  private readonly webhooks = new Map<string, WebhookRegistration>();
  private nextLocId = 1;
  private counters = EmulatorState.zeroCounters();
  private readonly refundBehaviours = new Map<string, RefundBehaviour>();

  constructor(
    now: () => Date,
    readonly tokenTtlSeconds: number,
    private readonly defaultRefundBehaviour: RefundBehaviour = { outcome: 'DEVOLVIDO', settleAfterMs: 300 },
  ) {
    // Receiver checks at registration are deliveries too, but not webhooks sent or failed.
    super(now, (d) => d.kind !== 'registration_test');
  }

  private static zeroCounters() {
    return {
      charges_created: 0,
      by_client: {} as Record<string, number>,
      tokens_issued: 0,
      devolucoes_created: 0,
    };
  }

  // --- clients and tokens -------------------------------------------------------------------

  /** Registers or updates sandbox credentials (idempotent). */
  registerClient(client: ClientRegistration): { created: boolean } {
    const created = !this.clients.has(client.client_id);
    this.clients.set(client.client_id, { ...client });
    return { created };
  }

  clientChave(clientId: string): string | undefined {
    return this.clients.get(clientId)?.chave;
  }

  authenticate(clientId: string, clientSecret: string): boolean {
    const client = this.clients.get(clientId);
    // Compare against a dummy when the id is unknown so both paths take the same time.
    return sameSecret(client?.client_secret ?? '\u0000unknown', clientSecret) && client !== undefined;
  }

  issueToken(clientId: string): { access_token: string; token_type: 'Bearer'; expires_in: number; scope: string } {
    const token = newAccessToken();
    this.tokens.set(token, { clientId, expiresAt: this.now().getTime() + this.tokenTtlSeconds * 1000 });
    this.counters.tokens_issued += 1;
    return { access_token: token, token_type: 'Bearer', expires_in: this.tokenTtlSeconds, scope: TOKEN_SCOPES };
  }

  clientForToken(token: string): string | undefined {
    const entry = this.tokens.get(token);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now().getTime()) {
      this.tokens.delete(token);
      return undefined;
    }
    return entry.clientId;
  }

  /** Invalidates every issued token (tests use it to exercise the client's refresh on 401). */
  revokeTokens(): void {
    this.tokens.clear();
  }

  // --- charges ------------------------------------------------------------------------------

  allocateLocId(): number {
    const id = this.nextLocId;
    this.nextLocId += 1;
    return id;
  }

  createCharge(charge: StoredCharge): StoredCharge {
    const own = this.charges.get(charge.clientId) ?? new Map<string, StoredCharge>();
    if (own.has(charge.txid)) throw pixErrors.txidDuplicado();
    own.set(charge.txid, charge);
    this.charges.set(charge.clientId, own);
    this.counters.charges_created += 1;
    this.counters.by_client[charge.clientId] = (this.counters.by_client[charge.clientId] ?? 0) + 1;
    return charge;
  }

  /** The charge as it is now: an ATIVA charge past `criacao + expiracao` becomes REMOVIDA_PELO_PSP. */
  getCharge(clientId: string, txid: string): StoredCharge {
    const charge = this.charges.get(clientId)?.get(txid);
    if (!charge) throw pixErrors.cobrancaNaoEncontrada();
    return this.expireIfDue(charge);
  }

  private expireIfDue(charge: StoredCharge): StoredCharge {
    const expiresAt = charge.criacao.getTime() + charge.request.calendario.expiracao * 1000;
    if (charge.status === 'ATIVA' && this.now().getTime() >= expiresAt) {
      charge.status = 'REMOVIDA_PELO_PSP';
      charge.revisao += 1;
    }
    return charge;
  }

  removeCharge(clientId: string, txid: string): StoredCharge {
    const charge = this.getCharge(clientId, txid);
    if (charge.status !== 'ATIVA') throw pixErrors.statusCobrancaInvalido();
    charge.status = 'REMOVIDA_PELO_USUARIO_RECEBEDOR';
    charge.revisao += 1;
    return charge;
  }

  /** Charges with this txid across clients (the control API pays by txid alone when unambiguous). */
  findChargesByTxid(txid: string): StoredCharge[] {
    const found: StoredCharge[] = [];
    for (const own of this.charges.values()) {
      const charge = own.get(txid);
      if (charge) found.push(this.expireIfDue(charge));
    }
    return found;
  }

  /** Settles an ATIVA charge with one Pix of its full amount; the caller checks the status first. */
  settleCharge(charge: StoredCharge, infoPagador?: string): PixRecebido {
    const at = this.now();
    const pix: PixRecebido = {
      endToEndId: newEndToEndId(at),
      txid: charge.txid,
      valor: charge.request.valor.original,
      horario: at.toISOString(),
      ...(infoPagador ? { infoPagador } : {}),
    };
    charge.pix.push(pix);
    charge.status = 'CONCLUIDA';
    return pix;
  }

  /**
   * Forgets a charge as if it never existed (a sandbox reset, data lost at the provider): its txid
   * then answers "not found" on every route. A control-port hook for tests.
   */
  forgetCharge(clientId: string, txid: string): boolean {
    return this.charges.get(clientId)?.delete(txid) ?? false;
  }

  /** One client's charges, oldest first (a control-port view for tests). */
  listCharges(clientId: string): StoredCharge[] {
    return [...(this.charges.get(clientId)?.values() ?? [])].map((charge) => this.expireIfDue(charge));
  }

  findLocation(clientId: string, locId: number): StoredCharge | undefined {
    for (const charge of this.charges.get(clientId)?.values() ?? []) {
      if (charge.loc.id === locId) return this.expireIfDue(charge);
    }
    return undefined;
  }

  /** The charge behind a payload location token (the last path segment of its location URL). */
  findByLocationToken(token: string): StoredCharge | undefined {
    for (const own of this.charges.values()) {
      for (const charge of own.values()) {
        if (charge.loc.location.endsWith(`/${token}`)) return this.expireIfDue(charge);
      }
    }
    return undefined;
  }

  // --- devoluções (refunds) -----------------------------------------------------------------

  /**
   * A paid cobr's settled attempt as a received Pix (its attempt's endToEndId, the cobr's txid and
   * amount), so it can be read, refunded and disputed like the Pix that paid a cob. Idempotent on
   * the endToEndId.
   */
  recordCobrPix(clientId: string, txid: string, pix: { endToEndId: string; valor: string }): PixRecebido {
    const own = this.cobrPix.get(clientId) ?? new Map<string, PixHolder>();
    this.cobrPix.set(clientId, own);
    const holder = own.get(txid) ?? { clientId, txid, request: { chave: this.clientChave(clientId) ?? '' }, pix: [] };
    own.set(txid, holder);
    const known = holder.pix.find((p) => p.endToEndId === pix.endToEndId);
    if (known) return known;
    const received: PixRecebido = { endToEndId: pix.endToEndId, txid, valor: pix.valor, horario: this.now().toISOString() };
    holder.pix.push(received);
    return received;
  }

  /** Every holder of received Pix of one client (or of all clients): cobs, then paid cobrs. */
  private pixHolders(clientId?: string): PixHolder[] {
    const pick = <T>(byClient: Map<string, Map<string, T>>): T[] =>
      clientId === undefined ? [...byClient.values()].flatMap((own) => [...own.values()]) : [...(byClient.get(clientId)?.values() ?? [])];
    return [...pick(this.charges), ...pick(this.cobrPix)];
  }

  /** A received Pix of this client by its endToEndId, with what it paid (a cob or a cobr). */
  findPix(clientId: string, endToEndId: string): { charge: PixHolder; pix: PixRecebido } {
    for (const charge of this.pixHolders(clientId)) {
      const pix = charge.pix.find((p) => p.endToEndId === endToEndId);
      if (pix) return { charge, pix };
    }
    throw pixErrors.pixNaoEncontrado();
  }

  /** Received Pix with this endToEndId across clients (control port: dashboard devoluções). */
  findPixAnyClient(endToEndId: string): { charge: PixHolder; pix: PixRecebido }[] {
    const found: { charge: PixHolder; pix: PixRecebido }[] = [];
    for (const charge of this.pixHolders()) {
      const pix = charge.pix.find((p) => p.endToEndId === endToEndId);
      if (pix) found.push({ charge, pix });
    }
    return found;
  }

  /**
   * Records a devolução of `pix`. The Banco Central rules: each id once per Pix, and the sum of
   * devoluções not NAO_REALIZADO never above the Pix's value; else PixDevolucaoInvalida.
   */
  createDevolucao(pix: PixRecebido, request: { id: string; valor: string; natureza: 'ORIGINAL' | 'RETIRADA'; descricao?: string }): Devolucao {
    const existing = pix.devolucoes ?? [];
    if (existing.some((d) => d.id === request.id)) throw pixErrors.pixDevolucaoInvalida('O id da devolução informado já foi utilizado.');
    const returned = existing.filter((d) => d.status !== 'NAO_REALIZADO').reduce((sum, d) => sum + toCents(d.valor), 0);
    const available = toCents(pix.valor) - returned;
    if (toCents(request.valor) > available) {
      throw pixErrors.pixDevolucaoInvalida(
        `O valor da devolução (${request.valor}) excede o valor disponível para devolução (${fromCents(available)}).`,
        'valor',
      );
    }
    const at = this.now();
    const devolucao: Devolucao = {
      id: request.id,
      rtrId: newReturnId(at),
      valor: request.valor,
      natureza: request.natureza,
      ...(request.descricao !== undefined ? { descricao: request.descricao } : {}),
      horario: { solicitacao: at.toISOString() },
      status: 'EM_PROCESSAMENTO',
    };
    pix.devolucoes = [...existing, devolucao];
    this.counters.devolucoes_created += 1;
    return devolucao;
  }

  findDevolucao(pix: PixRecebido, id: string): Devolucao {
    const devolucao = pix.devolucoes?.find((d) => d.id === id);
    if (!devolucao) throw pixErrors.devolucaoNaoEncontrada();
    return devolucao;
  }

  /** EM_PROCESSAMENTO → the client's configured outcome; false when already final. */
  settleDevolucao(devolucao: Devolucao, outcome: RefundBehaviour['outcome']): boolean {
    if (devolucao.status !== 'EM_PROCESSAMENTO') return false;
    devolucao.status = outcome;
    if (outcome === 'DEVOLVIDO') devolucao.horario.liquidacao = this.now().toISOString();
    else devolucao.motivo = 'Devolução recusada pelo participante do pagador';
    return true;
  }

  setRefundBehaviour(clientId: string | undefined, behaviour: RefundBehaviour): void {
    this.refundBehaviours.set(clientId ?? '', behaviour);
  }

  refundBehaviour(clientId: string): RefundBehaviour {
    return this.refundBehaviours.get(clientId) ?? this.refundBehaviours.get('') ?? this.defaultRefundBehaviour;
  }

  // --- webhooks -----------------------------------------------------------------------------

  setWebhook(registration: WebhookRegistration): void {
    this.webhooks.set(`${registration.clientId}\u0000${registration.chave}`, registration);
  }

  getWebhook(clientId: string, chave: string): WebhookRegistration | undefined {
    return this.webhooks.get(`${clientId}\u0000${chave}`);
  }

  deleteWebhook(clientId: string, chave: string): boolean {
    return this.webhooks.delete(`${clientId}\u0000${chave}`);
  }

  // --- persistence (kit/state-file.ts) ------------------------------------------------------

  /** What a restart keeps: account set-up, charges and the clock; tokens, deliveries, stats and faults start afresh. */
  snapshot() {
    return {
      clockOffsetMs: this.clock.offset(),
      clients: this.clients,
      charges: this.charges,
      cobrPix: this.cobrPix,
      webhooks: this.webhooks,
      refundBehaviours: this.refundBehaviours,
      nextLocId: this.nextLocId,
    };
  }

  restore(snapshot: ReturnType<EmulatorState['snapshot']>): void {
    refill(this.clients, snapshot.clients);
    refill(this.charges, snapshot.charges);
    // Absent from a state file written before paid cobrs kept their Pix.
    if (snapshot.cobrPix) refill(this.cobrPix, snapshot.cobrPix);
    refill(this.webhooks, snapshot.webhooks);
    refill(this.refundBehaviours, snapshot.refundBehaviours);
    this.nextLocId = snapshot.nextLocId;
    this.clock.restoreOffset(snapshot.clockOffsetMs);
  }

  /** Devoluções still EM_PROCESSAMENTO (after a restart their settlement must be scheduled again). */
  processingDevolucoes(): { charge: PixHolder; pix: PixRecebido; devolucao: Devolucao }[] {
    const found: { charge: PixHolder; pix: PixRecebido; devolucao: Devolucao }[] = [];
    for (const charge of this.pixHolders()) {
      for (const pix of charge.pix) {
        for (const devolucao of pix.devolucoes ?? []) if (devolucao.status === 'EM_PROCESSAMENTO') found.push({ charge, pix, devolucao });
      }
    }
    return found;
  }

  // --- stats and reset ----------------------------------------------------------------------

  stats() {
    let charges_stored = 0;
    for (const own of this.charges.values()) charges_stored += own.size;
    return {
      ...this.counters,
      by_client: { ...this.counters.by_client },
      ...activityStats(this.deliveries, this.faults),
      charges_stored,
      clients: this.clients.size,
      webhooks_registered: this.webhooks.size,
    };
  }

  /**
   * Clears charges, stats, faults and deliveries. Keeps clients, their tokens and webhook
   * registrations: those are account set-up, which a running stack does once at connect time.
   */
  reset(): void {
    this.charges.clear();
    this.cobrPix.clear();
    this.refundBehaviours.clear();
    this.faults.clear();
    this.deliveries.clear();
    this.counters = EmulatorState.zeroCounters();
  }
}
