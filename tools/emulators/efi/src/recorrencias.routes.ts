/**
 * Pix Automático on the API port, the Banco Central resources as Efí serves them under `/v2`
 * (psp-apis.md §8), behind the same Bearer check as `/v2/cob`: `POST|GET /rec`, `GET|PATCH
 * /rec/:idRec` (`?txid=` gives journey 3's combined QR), `POST /solicrec`, `GET|PATCH
 * /solicrec/:id`, `PUT|PATCH|GET /cobr/:txid`, `POST|GET /cobr`, `POST
 * /cobr/:txid/retentativa/:data`, `POST|GET /locrec`, `GET /locrec/:id`, and `PUT|GET|DELETE
 * /webhookrec` and `/webhookcobr`. The rules are in recorrencias.ts.
 *
 * Lists take `inicio` and `fim` (RFC 3339, required as in the spec's other lists) and answer
 * `{parametros, recs|cobsr|loc}`; one page holds everything (the emulator does not paginate).
 * Notifications go to `<webhookrec>/rec` as `{"recs":[…]}` and to `<webhookcobr>/cobr` as
 * `{"cobsr":[…]}` (§0 gives the paths; the body names follow the list answers: unconfirmed).
 */
import { randomBytes } from 'node:crypto';
import { Router, type Request } from 'express';
import { z } from 'zod';
import { isCalendarDate, recurrenceBrCode, type Merchant } from '../../kit';
import { clientOf } from './cob.routes';
import type { EmulatorState } from './emulator-state';
import { TXID_PATTERN } from './pix-ids';
import { EFI_ISPB, type Changes, type RecurrenceBook, type StoredCobr, type StoredLocRec, type StoredRec, type StoredSolicRec } from './recorrencias';
import { recErrors, type Recurso } from './recorrencias-errors';
import type { WebhookSender } from './webhook-sender';

export interface RecRoutesOptions {
  merchant: Merchant;
  /** Host part of location URLs, e.g. `qrcodes-pix.efi-emulator.local`. */
  locationHost: string;
}

const valor = z.string().regex(/^\d{1,10}\.\d{2}$/, 'deve ter o formato 0.00');
const date = z.string().refine(isCalendarDate, 'deve ser uma data AAAA-MM-DD');
const documento = { cpf: z.string().regex(/^\d{11}$/).optional(), cnpj: z.string().regex(/^\d{14}$/).optional() };
const devedor = z
  .object({ ...documento, nome: z.string().min(1).max(140) })
  .strict()
  .refine((d) => (d.cpf === undefined) !== (d.cnpj === undefined), 'informe cpf ou cnpj');

const recSchema = z
  .object({
    vinculo: z.object({ contrato: z.string().min(1).max(35), devedor, objeto: z.string().max(35).optional() }).strict(),
    calendario: z.object({ dataInicial: date, dataFinal: date.optional(), periodicidade: z.enum(['SEMANAL', 'MENSAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL']) }).strict(),
    valor: z
      .object({ valorRec: valor.optional(), valorMinimoRecebedor: valor.optional() })
      .strict()
      .refine((v) => v.valorRec === undefined || v.valorMinimoRecebedor === undefined, 'informe valorRec ou valorMinimoRecebedor, não ambos')
      .optional(),
    politicaRetentativa: z.enum(['NAO_PERMITE', 'PERMITE_3R_7D']),
    loc: z.number().int().positive().optional(),
    ativacao: z.object({ dadosJornada: z.object({ txid: z.string().regex(TXID_PATTERN) }).strict() }).strict().optional(),
  })
  .strict()
  .refine((r) => r.ativacao === undefined || r.loc !== undefined, { message: 'a jornada 3 precisa da location da recorrência', path: ['loc'] });

const solicRecSchema = z
  .object({
    idRec: z.string().length(29),
    calendario: z.object({ dataExpiracaoSolicitacao: z.string().datetime({ offset: true }) }).strict(),
    destinatario: z
      .object({ ...documento, conta: z.string().min(1).max(20), ispbParticipante: z.string().regex(/^\d{8}$/), agencia: z.string().max(4).optional() })
      .strict()
      .refine((d) => (d.cpf === undefined) !== (d.cnpj === undefined), 'informe cpf ou cnpj'),
  })
  .strict();

const cobrSchema = z
  .object({
    idRec: z.string().length(29),
    infoAdicional: z.string().max(140).optional(),
    calendario: z.object({ dataDeVencimento: date }).strict(),
    valor: z.object({ original: valor }).strict(),
    ajusteDiaUtil: z.boolean().default(true),
    devedor: z.record(z.string()).optional(),
    recebedor: z.record(z.string()).optional(),
  })
  .strict();

const cancelSchema = z.object({ status: z.literal('CANCELADA') }).strict();

/** A body that breaks the schema is the resource's `OperacaoInvalida`, naming the field. */
function parse<T>(recurso: Recurso, schema: z.ZodType<T, z.ZodTypeDef, unknown>, body: unknown): T {
  const parsed = schema.safeParse(body ?? {});
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw recErrors.operacaoInvalida(recurso, `O campo não respeita o schema: ${issue?.message ?? 'inválido'}.`, issue?.path.join('.') || 'body');
}

function window(recurso: Recurso, req: Request): { inicio: Date; fim: Date; parametros: Record<string, unknown> } {
  const inicio = new Date(String(req.query['inicio'] ?? ''));
  const fim = new Date(String(req.query['fim'] ?? ''));
  if (Number.isNaN(inicio.getTime())) throw recErrors.consultaInvalida(recurso, 'inicio', 'O parâmetro inicio (RFC 3339) é obrigatório.');
  if (Number.isNaN(fim.getTime())) throw recErrors.consultaInvalida(recurso, 'fim', 'O parâmetro fim (RFC 3339) é obrigatório.');
  if (fim < inicio) throw recErrors.consultaInvalida(recurso, 'fim', 'O timestamp representado pelo parâmetro fim é anterior ao parâmetro inicio.');
  return { inicio, fim, parametros: { inicio: inicio.toISOString(), fim: fim.toISOString() } };
}

const paginacao = (total: number) => ({ paginaAtual: 0, itensPorPagina: Math.max(total, 1), quantidadeDePaginas: 1, quantidadeTotalDeItens: total });

export const locRecJson = (loc: StoredLocRec) => ({ id: loc.id, location: loc.location, criacao: loc.criacao.toISOString(), ...(loc.idRec ? { idRec: loc.idRec } : {}) });

export function recJson(book: RecurrenceBook, rec: StoredRec) {
  const loc = book.locationOf(rec);
  return {
    idRec: rec.idRec,
    vinculo: rec.vinculo,
    calendario: rec.calendario,
    ...(rec.valor ? { valor: rec.valor } : {}),
    recebedor: { ispbParticipante: EFI_ISPB },
    politicaRetentativa: rec.politicaRetentativa,
    ...(loc ? { loc: locRecJson(loc) } : {}),
    ativacao: { tipoJornada: book.jornada(rec), ...(rec.txidAtivacao ? { dadosJornada: { txid: rec.txidAtivacao } } : {}) },
    status: rec.status,
    atualizacao: rec.atualizacao,
  };
}

export const solicRecJson = (s: StoredSolicRec) => ({
  idSolicRec: s.idSolicRec,
  idRec: s.idRec,
  calendario: { dataExpiracaoSolicitacao: s.dataExpiracaoSolicitacao },
  destinatario: s.destinatario,
  status: s.status,
  atualizacao: s.atualizacao,
});

export function cobrJson(book: RecurrenceBook, cobr: StoredCobr) {
  return {
    idRec: cobr.idRec,
    txid: cobr.txid,
    ...(cobr.infoAdicional !== undefined ? { infoAdicional: cobr.infoAdicional } : {}),
    calendario: { criacao: cobr.criacao.toISOString(), dataDeVencimento: cobr.dataDeVencimento },
    valor: { original: cobr.valorOriginal },
    ajusteDiaUtil: cobr.ajusteDiaUtil,
    ...(cobr.devedor ? { devedor: cobr.devedor } : {}),
    ...(cobr.recebedor ? { recebedor: cobr.recebedor } : {}),
    politicaRetentativa: book.findRec(cobr.idRec)?.politicaRetentativa,
    status: cobr.status,
    atualizacao: cobr.atualizacao,
    tentativas: cobr.tentativas,
  };
}

/** Sends what changed to the recurrence and charge webhooks of each record's client, when registered. */
export function notifyChanges(book: RecurrenceBook, sender: WebhookSender, changes: Changes): void {
  for (const rec of changes.recs) {
    const webhook = book.getWebhook(rec.clientId, 'rec');
    if (webhook) sender.notifyRecurrence('rec', rec.clientId, webhook.webhookUrl, { recs: [recJson(book, rec)] }, [rec.idRec]);
  }
  for (const cobr of changes.cobrs) {
    const webhook = book.getWebhook(cobr.clientId, 'cobr');
    if (webhook) sender.notifyRecurrence('cobr', cobr.clientId, webhook.webhookUrl, { cobsr: [cobrJson(book, cobr)] }, [cobr.txid]);
  }
}

export function recurrenceRoutes(state: EmulatorState, book: RecurrenceBook, sender: WebhookSender, options: RecRoutesOptions): Router {
  const router = Router();
  const cobActive = (clientId: string, txid: string) => state.listCharges(clientId).some((c) => c.txid === txid && c.status === 'ATIVA');

  // --- recurrences ---------------------------------------------------------------------------
  router.post('/rec', (req, res) => {
    const clientId = clientOf(res);
    const body = parse('Rec', recSchema, req.body);
    const rec = book.createRec(
      clientId,
      {
        vinculo: body.vinculo,
        calendario: body.calendario,
        ...(body.valor ? { valor: body.valor } : {}),
        politicaRetentativa: body.politicaRetentativa,
        ...(body.loc !== undefined ? { loc: body.loc } : {}),
        ...(body.ativacao ? { txidAtivacao: body.ativacao.dadosJornada.txid } : {}),
      },
      (txid) => cobActive(clientId, txid),
    );
    res.status(201).json(recJson(book, rec));
  });

  router.get('/rec', (req, res) => {
    const { inicio, fim, parametros } = window('Rec', req);
    const status = typeof req.query['status'] === 'string' ? req.query['status'] : undefined;
    const recs = book.listRecs(clientOf(res), inicio, fim, status);
    res.status(200).json({ parametros: { ...parametros, paginacao: paginacao(recs.length) }, recs: recs.map((r) => recJson(book, r)) });
  });

  // `?txid=` asks for journey 3's combined QR; a journey-2 recurrence shows its own QR while pending.
  router.get('/rec/:idRec', (req, res) => {
    const clientId = clientOf(res);
    const rec = book.getRec(clientId, req.params['idRec'] ?? '');
    const txid = typeof req.query['txid'] === 'string' ? req.query['txid'] : undefined;
    const loc = book.locationOf(rec);
    let dadosQR: { pixCopiaECola: string; jornada: string } | undefined;
    if (txid !== undefined) {
      if (txid !== rec.txidAtivacao || !loc) throw recErrors.consultaInvalida('Rec', 'txid', 'O parâmetro txid corresponde a uma cobrança imediata diferente da informada em ativacao.dadosJornada.txid.');
      const cob = state.getCharge(clientId, txid);
      dadosQR = { pixCopiaECola: recurrenceBrCode(loc.location, options.merchant, cob.loc.location), jornada: 'JORNADA_3' };
    } else if (loc && rec.status === 'CRIADA' && book.jornada(rec) === 'JORNADA_2') {
      dadosQR = { pixCopiaECola: recurrenceBrCode(loc.location, options.merchant), jornada: 'JORNADA_2' };
    }
    res.status(200).json({ ...recJson(book, rec), ...(dadosQR ? { dadosQR } : {}) });
  });

  // The emulator implements the one revision integrators need: cancelling (like PATCH /cob's removal).
  router.patch('/rec/:idRec', (req, res) => {
    parse('Rec', cancelSchema, req.body);
    const rec = book.getRec(clientOf(res), req.params['idRec'] ?? '');
    const changes = book.cancelRec(rec);
    notifyChanges(book, sender, changes);
    res.status(200).json(recJson(book, rec));
  });

  // --- approval requests (journey 1) ---------------------------------------------------------
  router.post('/solicrec', (req, res) => {
    const body = parse('SolicRec', solicRecSchema, req.body);
    const solicrec = book.createSolicRec(clientOf(res), {
      idRec: body.idRec,
      dataExpiracaoSolicitacao: body.calendario.dataExpiracaoSolicitacao,
      destinatario: body.destinatario,
    });
    const answer = solicRecJson(solicrec);
    book.deliverSolicRec(solicrec);
    res.status(201).json(answer);
  });

  router.get('/solicrec/:id', (req, res) => {
    res.status(200).json(solicRecJson(book.getSolicRec(clientOf(res), req.params['id'] ?? '')));
  });

  router.patch('/solicrec/:id', (req, res) => {
    parse('SolicRec', cancelSchema, req.body);
    const solicrec = book.getSolicRec(clientOf(res), req.params['id'] ?? '');
    book.cancelSolicRec(solicrec);
    res.status(200).json(solicRecJson(solicrec));
  });

  // --- recurring charges ---------------------------------------------------------------------
  const createCobr = (clientId: string, txid: string, body: z.infer<typeof cobrSchema>) => {
    const cobr = book.createCobr(clientId, txid, {
      idRec: body.idRec,
      dataDeVencimento: body.calendario.dataDeVencimento,
      valorOriginal: body.valor.original,
      ajusteDiaUtil: body.ajusteDiaUtil,
      ...(body.infoAdicional !== undefined ? { infoAdicional: body.infoAdicional } : {}),
      ...(body.devedor ? { devedor: body.devedor } : {}),
      ...(body.recebedor ? { recebedor: body.recebedor } : {}),
    });
    // The answer shows the charge as created; the payer's bank schedules it right after.
    const answer = cobrJson(book, cobr);
    notifyChanges(book, sender, book.scheduleCobr(cobr));
    return answer;
  };

  router.put('/cobr/:txid', (req, res) => {
    const txid = req.params['txid'] ?? '';
    if (!TXID_PATTERN.test(txid)) throw recErrors.operacaoInvalida('CobR', 'O txid deve ter entre 26 e 35 caracteres alfanuméricos.', 'txid');
    res.status(201).json(createCobr(clientOf(res), txid, parse('CobR', cobrSchema, req.body)));
  });

  router.post('/cobr', (req, res) => {
    res.status(201).json(createCobr(clientOf(res), randomBytes(16).toString('hex'), parse('CobR', cobrSchema, req.body)));
  });

  router.get('/cobr', (req, res) => {
    const { inicio, fim, parametros } = window('CobR', req);
    const filter = {
      ...(typeof req.query['status'] === 'string' ? { status: req.query['status'] } : {}),
      ...(typeof req.query['idRec'] === 'string' ? { idRec: req.query['idRec'] } : {}),
    };
    const cobrs = book.listCobrs(clientOf(res), inicio, fim, filter);
    res.status(200).json({ parametros: { ...parametros, paginacao: paginacao(cobrs.length) }, cobsr: cobrs.map((c) => cobrJson(book, c)) });
  });

  router.get('/cobr/:txid', (req, res) => {
    res.status(200).json(cobrJson(book, book.getCobr(clientOf(res), req.params['txid'] ?? '')));
  });

  router.patch('/cobr/:txid', (req, res) => {
    parse('CobR', cancelSchema, req.body);
    const cobr = book.getCobr(clientOf(res), req.params['txid'] ?? '');
    notifyChanges(book, sender, book.cancelCobr(cobr));
    res.status(200).json(cobrJson(book, cobr));
  });

  router.post('/cobr/:txid/retentativa/:data', (req, res) => {
    const data = req.params['data'] ?? '';
    if (!isCalendarDate(data)) throw recErrors.operacaoInvalida('CobR', 'A data deve ter o formato AAAA-MM-DD.', 'data');
    const cobr = book.requestRetry(book.getCobr(clientOf(res), req.params['txid'] ?? ''), data);
    res.status(200).json(cobrJson(book, cobr));
  });

  // --- recurrence locations ------------------------------------------------------------------
  router.post('/locrec', (_req, res) => {
    res.status(201).json(locRecJson(book.createLocRec(clientOf(res), options.locationHost)));
  });

  router.get('/locrec', (req, res) => {
    const { inicio, fim, parametros } = window('PayloadLocationRec', req);
    const locs = book.listLocRecs(clientOf(res), inicio, fim);
    res.status(200).json({ parametros: { ...parametros, paginacao: paginacao(locs.length) }, loc: locs.map(locRecJson) });
  });

  router.get('/locrec/:id', (req, res) => {
    res.status(200).json(locRecJson(book.getLocRec(clientOf(res), Number(req.params['id']))));
  });

  // --- webhooks ------------------------------------------------------------------------------
  for (const kind of ['rec', 'cobr'] as const) {
    const recurso: Recurso = kind === 'rec' ? 'WebhookRec' : 'WebhookCobR';
    router.put(`/webhook${kind}`, async (req, res) => {
      const clientId = clientOf(res);
      const webhookUrl = (req.body as { webhookUrl?: unknown } | undefined)?.webhookUrl;
      if (typeof webhookUrl !== 'string' || webhookUrl.length === 0) throw recErrors.operacaoInvalida(recurso, 'O campo webhookUrl não respeita o schema.', 'webhookUrl');
      const skipMtlsChecking = String(req.headers['x-skip-mtls-checking'] ?? '').toLowerCase() === 'true';
      await sender.verifyReceiver(clientId, webhookUrl, skipMtlsChecking);
      book.setWebhook(clientId, kind, webhookUrl);
      res.status(200).json({ webhookUrl });
    });
    router.get(`/webhook${kind}`, (_req, res) => {
      const webhook = book.getWebhook(clientOf(res), kind);
      if (!webhook) throw recErrors.naoEncontrado(recurso, 'Webhook não encontrado.');
      res.status(200).json({ webhookUrl: webhook.webhookUrl, criacao: webhook.criacao.toISOString() });
    });
    router.delete(`/webhook${kind}`, (_req, res) => {
      if (!book.deleteWebhook(clientOf(res), kind)) throw recErrors.naoEncontrado(recurso, 'Webhook não encontrado.');
      res.status(204).end();
    });
  }

  return router;
}
