/**
 * Efí's API Cobranças, boleto only (`banking_billet`), on the same HTTPS port as the API Pix (the
 * real one lives at `cobrancas(-h).api.efipay.com.br/v1`, amounts in **integer cents**):
 * - `POST /v1/authorize` (client_credentials with HTTP Basic, like `/oauth/token`);
 * - `POST /v1/charge/one-step` `{items[{name,value,amount}], metadata{custom_id, notification_url},
 *   payment{banking_billet{customer{name, cpf | juridical_person{corporate_name,cnpj}, email?,
 *   phone_number?, address?}, expire_at, message?}}}` → `{code:200, data{charge_id, total, status:
 *   "waiting", barcode, link, billet_link, pdf{charge}, expire_at, payment:"banking_billet"}}`;
 * - `GET /v1/charge/:id`, `PUT /v1/charge/:id/cancel`;
 * - `GET /v1/charges?charge_type&begin_date&end_date[&custom_id][&limit][&page]` paged: `limit`
 *   charges per page (default and maximum LIST_LIMIT_DEFAULT / LIST_LIMIT_MAX here) and `page`
 *   from 1, oldest first. The parameter names are those of Efí's SDK examples; their defaults,
 *   bounds and whether the answer counts pages are unconfirmed, so the answer has only `data`;
 * - an app without the API Cobranças (`CobrancaOptions.withoutCobrancas`, a Pix-only app) is
 *   refused at `POST /v1/authorize` with 401 (Efí's exact answer for a missing scope is unconfirmed);
 * - notifications as Efí sends them: `POST <notification_url>` form `notification=<token>`, read
 *   back with `GET /v1/notification/:token` → `data[{id, type:"charge", custom_id, status{current,
 *   previous}, identifiers{charge_id}, created_at}]`.
 * A card (`payment.credit_card`) is answered 400: its `payment_token` comes from Efí's browser
 * script, which the emulator does not serve. Errors are `{code, error, error_description}`.
 * Shapes of `GET /v1/charge/:id`, the list and the notification follow Efí's SDK examples; fields
 * beyond those the facts name are unconfirmed.
 */
import { randomBytes } from 'node:crypto';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { newBoleto, type Logger } from '../../kit';
import type { EmulatorState } from './emulator-state';
import { parseBasicAuth } from './oauth.routes';
import type { WebhookSender } from './webhook-sender';

export type CobrancaStatus = 'new' | 'waiting' | 'paid' | 'unpaid' | 'canceled' | 'settled';

export interface StoredCobranca {
  chargeId: number;
  clientId: string;
  total: number;
  customId: string | null;
  notificationUrl: string | null;
  status: CobrancaStatus;
  /** YYYY-MM-DD. */
  expireAt: string;
  barcode: string;
  digitableLine: string;
  customer: Record<string, unknown>;
  createdAt: Date;
  paidAt?: Date;
  /** Notification tokens issued for this charge, oldest first. */
  history: { token: string; previous: CobrancaStatus | null; current: CobrancaStatus; at: Date; id: number }[];
}

const addressSchema = z.object({
  street: z.string().min(1),
  number: z.string().min(1),
  neighborhood: z.string().min(1),
  zipcode: z.string().regex(/^\d{8}$/),
  city: z.string().min(1),
  state: z.string().length(2),
  complement: z.string().optional(),
});

const customerSchema = z
  .object({
    name: z.string().min(1).optional(),
    cpf: z.string().regex(/^\d{11}$/).optional(),
    email: z.string().email().optional(),
    phone_number: z.string().regex(/^\d{10,11}$/).optional(),
    juridical_person: z.object({ corporate_name: z.string().min(1), cnpj: z.string().regex(/^\d{14}$/) }).optional(),
    address: addressSchema.optional(),
  })
  .refine((c) => (c.name && c.cpf) || c.juridical_person, { message: 'customer precisa de name e cpf, ou juridical_person' });

const oneStepSchema = z.object({
  items: z.array(z.object({ name: z.string().min(1).max(255), value: z.number().int().min(1), amount: z.number().int().min(1).optional() })).min(1),
  metadata: z.object({ custom_id: z.string().max(255).optional(), notification_url: z.string().url().max(255).optional() }).optional(),
  payment: z.object({
    banking_billet: z
      .object({ customer: customerSchema, expire_at: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), message: z.string().max(80).optional() })
      .optional(),
    credit_card: z.unknown().optional(),
  }),
});

function efiError(res: Response, status: number, code: number, error: string, description: string): void {
  res.status(status).json({ code, error, error_description: description });
}

/** `00190.00009 01234.567890 12345.678901 2 12340000015000`: how Efí writes `barcode`. */
export function formatLine(line: string): string {
  return `${line.slice(0, 5)}.${line.slice(5, 10)} ${line.slice(10, 15)}.${line.slice(15, 21)} ${line.slice(21, 26)}.${line.slice(26, 32)} ${line[32]} ${line.slice(33)}`;
}

/** The boletos of every client; persisted with the state file. */
export class CobrancaBook {
  private readonly charges = new Map<number, StoredCobranca>();
  private readonly notifications = new Map<string, number>();
  private nextId = 2_400_000 + Math.floor(Math.random() * 100_000) * 10;
  private nextNotificationId = 90_000_000;

  constructor(private readonly now: () => Date) {}

  add(charge: Omit<StoredCobranca, 'chargeId' | 'history'>): StoredCobranca {
    this.nextId += 1;
    const stored: StoredCobranca = { ...charge, chargeId: this.nextId, history: [] };
    this.charges.set(stored.chargeId, stored);
    return stored;
  }

  /** A client's charge as it is now: past its due day (São Paulo) unpaid, it reads `unpaid`. */
  get(clientId: string, chargeId: number): StoredCobranca | undefined {
    const charge = this.charges.get(chargeId);
    if (!charge || charge.clientId !== clientId) return undefined;
    return this.expireIfDue(charge);
  }

  find(chargeId: number): StoredCobranca | undefined {
    const charge = this.charges.get(chargeId);
    return charge ? this.expireIfDue(charge) : undefined;
  }

  list(clientId: string): StoredCobranca[] {
    return [...this.charges.values()].filter((c) => c.clientId === clientId).map((c) => this.expireIfDue(c));
  }

  private expireIfDue(charge: StoredCobranca): StoredCobranca {
    if (charge.status === 'waiting' && this.now().getTime() > Date.parse(`${charge.expireAt}T23:59:59-03:00`)) this.change(charge, 'unpaid');
    return charge;
  }

  /** Moves the charge to `status` and issues the notification token for the change. */
  change(charge: StoredCobranca, status: CobrancaStatus): string {
    const token = randomBytes(18).toString('hex');
    this.nextNotificationId += 1;
    charge.history.push({ token, previous: charge.status, current: status, at: this.now(), id: this.nextNotificationId });
    charge.status = status;
    if (status === 'paid') charge.paidAt = this.now();
    this.notifications.set(token, charge.chargeId);
    return token;
  }

  /** The charge a token names and its changes up to it (as Efí's notification history does). */
  notification(clientId: string, token: string): { charge: StoredCobranca; history: StoredCobranca['history'] } | undefined {
    const chargeId = this.notifications.get(token);
    const charge = chargeId === undefined ? undefined : this.charges.get(chargeId);
    if (!charge || charge.clientId !== clientId) return undefined;
    const upTo = charge.history.findIndex((h) => h.token === token);
    return { charge, history: charge.history.slice(0, upTo + 1) };
  }

  snapshot() {
    return { charges: [...this.charges.values()], nextId: this.nextId, nextNotificationId: this.nextNotificationId };
  }

  restore(snapshot: ReturnType<CobrancaBook['snapshot']>): void {
    this.charges.clear();
    this.notifications.clear();
    for (const charge of snapshot.charges) {
      const restored = { ...charge, createdAt: new Date(charge.createdAt), ...(charge.paidAt ? { paidAt: new Date(charge.paidAt) } : {}), history: charge.history.map((h) => ({ ...h, at: new Date(h.at) })) };
      this.charges.set(restored.chargeId, restored);
      for (const h of restored.history) this.notifications.set(h.token, restored.chargeId);
    }
    this.nextId = snapshot.nextId;
    this.nextNotificationId = snapshot.nextNotificationId;
  }

  reset(): void {
    this.charges.clear();
    this.notifications.clear();
  }
}

export interface CobrancaOptions {
  /** Where `link` / `pdf.charge` point (the control port's boleto page). */
  boletoBase: () => string;
  /** Client ids whose app has no access to the API Cobranças (Pix-only apps). */
  withoutCobrancas?: readonly string[];
}

/** `GET /v1/charges` page size when `limit` is absent, and the largest accepted. */
export const LIST_LIMIT_DEFAULT = 100;
export const LIST_LIMIT_MAX = 1000;

/** `YYYY-MM-DD HH:mm:ss` in São Paulo (UTC−03:00), as the API Cobranças writes its times (no offset). */
function spDateTime(at: Date): string {
  return new Date(at.getTime() - 3 * 3_600_000).toISOString().replace('T', ' ').slice(0, 19);
}

function chargeData(charge: StoredCobranca, options: CobrancaOptions) {
  const link = `${options.boletoBase()}/cobrancas/${charge.chargeId}/boleto`;
  return {
    charge_id: charge.chargeId,
    total: charge.total,
    status: charge.status,
    custom_id: charge.customId,
    notification_url: charge.notificationUrl,
    created_at: spDateTime(charge.createdAt),
    ...(charge.paidAt ? { paid_at: spDateTime(charge.paidAt) } : {}),
    payment: {
      method: 'banking_billet',
      banking_billet: { barcode: formatLine(charge.digitableLine), link, billet_link: link, pdf: { charge: `${link}/pdf` }, expire_at: charge.expireAt },
    },
  };
}

/** Sends Efí's notification of a change: `notification=<token>` to the charge's URL (form-encoded). */
export function notifyCobranca(sender: WebhookSender, charge: StoredCobranca, token: string): boolean {
  if (!charge.notificationUrl) return false;
  sender.notifyCobranca(charge.clientId, charge.notificationUrl, token, String(charge.chargeId));
  return true;
}

function bearerClient(state: EmulatorState, req: Request): string | undefined {
  const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
  return token ? state.clientForToken(token) : undefined;
}

export function cobrancaRoutes(state: EmulatorState, book: CobrancaBook, sender: WebhookSender, options: CobrancaOptions, logger: Logger): Router {
  const router = Router();

  router.post('/v1/authorize', (req, res) => {
    const basic = parseBasicAuth(req.headers.authorization);
    if ((req.body as { grant_type?: unknown } | undefined)?.grant_type !== 'client_credentials') return efiError(res, 400, 3500010, 'invalid_request', 'grant_type deve ser client_credentials');
    if (!basic || !state.authenticate(basic.clientId, basic.clientSecret)) return efiError(res, 401, 3500034, 'unauthorized', 'Credenciais inválidas (client_id/client_secret)');
    if (options.withoutCobrancas?.includes(basic.clientId)) return efiError(res, 401, 3500034, 'unauthorized', 'Aplicação sem acesso à API Cobranças');
    const token = state.issueToken(basic.clientId);
    res.status(200).json({ access_token: token.access_token, token_type: 'Bearer', expires_in: token.expires_in });
  });

  router.use('/v1', (req, res, next) => {
    const clientId = bearerClient(state, req);
    if (!clientId) return efiError(res, 401, 3500034, 'unauthorized', 'Token de acesso inválido ou expirado');
    res.locals['clientId'] = clientId;
    next();
  });

  router.post('/v1/charge/one-step', (req, res) => {
    const clientId = res.locals['clientId'] as string;
    const parsed = oneStepSchema.safeParse(req.body);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return efiError(res, 400, 3500034, 'validation_error', `Propriedade inválida: ${issue?.path.join('.') || 'body'} (${issue?.message ?? 'inválida'})`);
    }
    const body = parsed.data;
    if (body.payment.credit_card !== undefined) return efiError(res, 400, 3500034, 'validation_error', 'payment.credit_card não é emulado: o payment_token vem do script de Efí no navegador');
    const billet = body.payment.banking_billet;
    if (!billet) return efiError(res, 400, 3500034, 'validation_error', 'Informe payment.banking_billet');
    const today = new Date(state.now().getTime() - 3 * 3_600_000).toISOString().slice(0, 10);
    if (billet.expire_at < today) return efiError(res, 400, 3500034, 'validation_error', 'expire_at não pode ser uma data passada');
    const total = body.items.reduce((sum, item) => sum + item.value * (item.amount ?? 1), 0);
    const { barcode, digitableLine } = newBoleto(total, billet.expire_at, '364'); // 364: Efí's bank code
    const charge = book.add({
      clientId,
      total,
      customId: body.metadata?.custom_id ?? null,
      notificationUrl: body.metadata?.notification_url ?? null,
      status: 'waiting',
      expireAt: billet.expire_at,
      barcode,
      digitableLine,
      customer: { ...billet.customer },
      createdAt: state.now(),
    });
    logger.info({ client: clientId, charge: charge.chargeId }, 'boleto created');
    const data = chargeData(charge, options);
    res.status(200).json({
      code: 200,
      data: { charge_id: charge.chargeId, total, status: charge.status, barcode: data.payment.banking_billet.barcode, link: data.payment.banking_billet.link, billet_link: data.payment.banking_billet.billet_link, pdf: data.payment.banking_billet.pdf, expire_at: charge.expireAt, payment: 'banking_billet' },
    });
  });

  router.get('/v1/charge/:id', (req, res) => {
    const charge = /^\d{1,12}$/.test(req.params['id'] ?? '') ? book.get(res.locals['clientId'] as string, Number(req.params['id'])) : undefined;
    if (!charge) return efiError(res, 404, 3500034, 'charge_not_found', 'Cobrança não encontrada para este client_id');
    res.status(200).json({ code: 200, data: chargeData(charge, options) });
  });

  router.put('/v1/charge/:id/cancel', (req, res) => {
    const charge = /^\d{1,12}$/.test(req.params['id'] ?? '') ? book.get(res.locals['clientId'] as string, Number(req.params['id'])) : undefined;
    if (!charge) return efiError(res, 404, 3500034, 'charge_not_found', 'Cobrança não encontrada para este client_id');
    if (charge.status !== 'waiting' && charge.status !== 'new' && charge.status !== 'unpaid') {
      return efiError(res, 400, 3500034, 'charge_status_invalid', `Cobrança com status ${charge.status} não pode ser cancelada`);
    }
    notifyCobranca(sender, charge, book.change(charge, 'canceled'));
    res.status(200).json({ code: 200 });
  });

  // `PUT /v1/charge/:id/metadata {notification_url?, custom_id?}` (Efí's updateChargeMetadata).
  router.put('/v1/charge/:id/metadata', (req, res) => {
    const charge = /^\d{1,12}$/.test(req.params['id'] ?? '') ? book.get(res.locals['clientId'] as string, Number(req.params['id'])) : undefined;
    if (!charge) return efiError(res, 404, 3500034, 'charge_not_found', 'Cobrança não encontrada para este client_id');
    const parsed = z.object({ notification_url: z.string().url().max(255).optional(), custom_id: z.string().max(255).optional() }).strict().safeParse(req.body ?? {});
    if (!parsed.success) return efiError(res, 400, 3500034, 'validation_error', `Propriedade inválida: ${parsed.error.issues[0]?.path.join('.') ?? 'body'}`);
    if (parsed.data.notification_url !== undefined) charge.notificationUrl = parsed.data.notification_url;
    if (parsed.data.custom_id !== undefined) charge.customId = parsed.data.custom_id;
    res.status(200).json({ code: 200 });
  });

  router.get('/v1/charges', (req, res) => {
    const query = req.query as Record<string, string | undefined>;
    if (!query['begin_date'] || !query['end_date']) return efiError(res, 400, 3500034, 'validation_error', 'begin_date e end_date são obrigatórios');
    const from = Date.parse(`${query['begin_date']}T00:00:00-03:00`);
    const to = Date.parse(`${query['end_date']}T23:59:59-03:00`);
    const limit = query['limit'] === undefined ? LIST_LIMIT_DEFAULT : Number(query['limit']);
    const page = query['page'] === undefined ? 1 : Number(query['page']);
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > LIST_LIMIT_MAX) return efiError(res, 400, 3500034, 'validation_error', `limit deve ser um inteiro de 1 a ${LIST_LIMIT_MAX}`);
    if (!Number.isSafeInteger(page) || page < 1) return efiError(res, 400, 3500034, 'validation_error', 'page deve ser um inteiro a partir de 1');
    const matches = book
      .list(res.locals['clientId'] as string)
      .filter((c) => c.createdAt.getTime() >= from && c.createdAt.getTime() <= to)
      .filter((c) => !query['custom_id'] || c.customId === query['custom_id'])
      .filter(() => !query['charge_type'] || query['charge_type'] === 'billet')
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.chargeId - b.chargeId);
    res.status(200).json({ code: 200, data: matches.slice((page - 1) * limit, page * limit).map((c) => chargeData(c, options)) });
  });

  router.get('/v1/notification/:token', (req, res) => {
    const found = book.notification(res.locals['clientId'] as string, req.params['token'] ?? '');
    if (!found) return efiError(res, 404, 3500034, 'notification_not_found', 'Notificação não encontrada');
    const { charge, history } = found;
    res.status(200).json({
      code: 200,
      data: history.map((h) => ({
        id: h.id,
        type: 'charge',
        custom_id: charge.customId,
        status: { current: h.current, previous: h.previous },
        identifiers: { charge_id: charge.chargeId },
        created_at: spDateTime(h.at),
      })),
    });
  });

  return router;
}
