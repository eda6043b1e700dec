/**
 * The control port (plain HTTP, no mTLS): sandbox set-up and test hooks that the real Efí does
 * not have. Answers `{error, message}` on failure.
 */
import { Router, type Express } from 'express';
import { controlPort, escapeHtml, payoutControlRoutes, qrCodePngDataUrl, sendControlError as fail, type Logger } from '../../kit';
import { z } from 'zod';
import { notifyCobranca, type CobrancaBook } from './cobrancas';
import { dashboardRoutes, type DashboardOptions } from './dashboard.routes';
import type { EmulatorState } from './emulator-state';
import { envioJson, type EnvioBook } from './envio.routes';
import { infracaoControlRoutes, type InfracaoBook } from './infracoes';
import { newDashboardRefundId } from './pix-ids';
import type { RecurrenceBook } from './recorrencias';
import { recurrenceControlRoutes } from './recorrencias-control.routes';
import { notifyChanges } from './recorrencias.routes';
import type { RefundSettler } from './refund-settler';
import type { WebhookSender } from './webhook-sender';

const clientSchema = z.object({
  client_id: z.string().min(1),
  client_secret: z.string().min(1),
  chave: z.string().min(1).max(77),
});

const dashboardRefundSchema = z
  .object({ client_id: z.string().optional(), valor: z.string().regex(/^\d{1,10}\.\d{2}$/), descricao: z.string().max(140).optional() })
  .strict();

const refundBehaviourSchema = z
  .object({
    client_id: z.string().min(1).optional(),
    outcome: z.enum(['DEVOLVIDO', 'NAO_REALIZADO']),
    settle_after_ms: z.number().int().min(0).max(600_000).optional(),
  })
  .strict();

const payBodySchema = z.object({ client_id: z.string().optional(), infoPagador: z.string().max(140).optional() }).strict();

/** Pix Automático's part of the control port: its records, and what the passing of time does to them. */
export interface RecurrenceControl {
  book: RecurrenceBook;
  /** Expires what became due (runs after the clock moves). */
  tick: () => void;
}

export function controlApp(
  state: EmulatorState,
  sender: WebhookSender,
  settler: RefundSettler,
  logger: Logger,
  infracoes?: InfracaoBook,
  recurrences?: RecurrenceControl,
  envios?: EnvioBook,
  cobrancas?: CobrancaBook,
  /** Charges made and changed in Efí's dashboard (dashboard.routes.ts). */
  dashboard?: DashboardOptions,
): Express {
  const routes = Router();
  if (dashboard) routes.use(dashboardRoutes(state, dashboard, envios));
  // A boleto (API Cobranças) is paid by its numeric charge_id on the same route as a Pix by txid
  // (a txid has 26 to 35 characters, so the two never meet).
  routes.post('/__control/charges/:id/pay', (req, res, next) => {
    const raw = req.params['id'] ?? '';
    const charge = /^\d{1,12}$/.test(raw) ? cobrancas?.find(Number(raw)) : undefined;
    if (!charge || !cobrancas) return next();
    if (charge.status !== 'waiting') return fail(res, 409, 'charge_not_payable', `boleto is ${charge.status}`);
    const webhook = notifyCobranca(sender, charge, cobrancas.change(charge, 'paid'));
    logger.info({ client: charge.clientId, charge: charge.chargeId, webhook }, 'boleto paid');
    res.status(200).json({ charge_id: charge.chargeId, status: charge.status, webhook: webhook ? 'scheduled' : 'no_url' });
  });

  // `link` / `pdf.charge` of a boleto: the voucher with its linha digitável.
  routes.get('/cobrancas/:id/boleto{/pdf}', (req, res) => {
    const charge = /^\d{1,12}$/.test(req.params['id'] ?? '') ? cobrancas?.find(Number(req.params['id'])) : undefined;
    if (!charge) return fail(res, 404, 'charge_not_found', 'unknown boleto');
    res
      .status(200)
      .type('html')
      .send(`<!doctype html><meta charset="utf-8"><title>Boleto ${charge.chargeId}</title><h1>Boleto</h1><p>Status: ${charge.status}</p><p><code>${escapeHtml(charge.digitableLine)}</code></p>`);
  });
  routes.post('/__control/clients', (req, res) => {
    const parsed = clientSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { created } = state.registerClient(parsed.data);
    logger.info({ client: parsed.data.client_id, created }, 'sandbox client registered');
    res.status(created ? 201 : 200).json({ client_id: parsed.data.client_id, chave: parsed.data.chave });
  });

  // Whether a client's account is set up (the stack's seed checks its webhook after a restart).
  routes.get('/__control/clients/:clientId', (req, res) => {
    const clientId = req.params['clientId'] ?? '';
    const chave = state.clientChave(clientId);
    if (chave === undefined) return fail(res, 404, 'client_not_found', 'unknown client_id');
    res.status(200).json({ client_id: clientId, chave, webhook_registered: state.getWebhook(clientId, chave) !== undefined });
  });

  routes.post('/__control/charges/:txid/pay', (req, res) => {
    const parsed = payBodySchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const txid = req.params['txid'] ?? '';
    const [charge, ...others] = state.findChargesByTxid(txid).filter((c) => !parsed.data.client_id || c.clientId === parsed.data.client_id);
    if (!charge) return fail(res, 404, 'charge_not_found', `no charge with txid ${txid}`);
    if (others.length > 0) return fail(res, 409, 'ambiguous_txid', 'several clients have this txid: send client_id');
    if (charge.status !== 'ATIVA') return fail(res, 409, 'charge_not_payable', `charge is ${charge.status}`);
    const pix = state.settleCharge(charge, parsed.data.infoPagador);
    // Efí charges no fee on a Pix received by the API Pix in this emulator: the whole amount is available.
    envios?.credit(charge.clientId, Math.round(Number(pix.valor) * 100));
    const registration = state.getWebhook(charge.clientId, charge.request.chave);
    if (registration) sender.notifyPix(charge, registration, pix);
    // Journey 3: paying the immediate charge of the combined QR approves its recurrence.
    const rec = recurrences?.book.recActivatedBy(charge.clientId, txid);
    if (rec && recurrences) notifyChanges(recurrences.book, sender, recurrences.book.approve(rec));
    logger.info({ client: charge.clientId, txid, webhook: Boolean(registration) }, 'charge paid');
    res.status(200).json({ txid, status: charge.status, pix: charge.pix, webhook: registration ? 'scheduled' : 'not_registered' });
  });

  // The provider losing a charge (a sandbox reset): every route then answers it is not found.
  routes.delete('/__control/charges/:txid', (req, res) => {
    const txid = req.params['txid'] ?? '';
    const candidates = state.findChargesByTxid(txid);
    if (candidates.length === 0) return fail(res, 404, 'charge_not_found', `no charge with txid ${txid}`);
    for (const charge of candidates) state.forgetCharge(charge.clientId, txid);
    logger.info({ txid }, 'charge forgotten');
    res.status(204).end();
  });

  // A devolução made in Efí's dashboard (not through the API): same rules, an id Efí chooses.
  routes.post('/__control/pix/:e2eId/devolucao', (req, res) => {
    const parsed = dashboardRefundSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const e2eId = req.params['e2eId'] ?? '';
    const found = state.findPixAnyClient(e2eId).filter((f) => !parsed.data.client_id || f.charge.clientId === parsed.data.client_id);
    const first = found[0];
    if (!first) return fail(res, 404, 'pix_not_found', `no received Pix ${e2eId}`);
    const { charge, pix } = first;
    try {
      const devolucao = state.createDevolucao(pix, {
        id: newDashboardRefundId(),
        valor: parsed.data.valor,
        natureza: 'ORIGINAL',
        ...(parsed.data.descricao !== undefined ? { descricao: parsed.data.descricao } : {}),
      });
      settler.schedule(charge, pix, devolucao);
      res.status(201).json(devolucao);
    } catch (err) {
      const detail = (err as { body?: { violacoes?: { razao: string }[] } }).body?.violacoes?.[0]?.razao ?? (err as Error).message;
      fail(res, 409, 'devolucao_invalida', detail);
    }
  });

  // How devoluções settle from now on: outcome and delay, per client or global.
  routes.post('/__control/devolucoes/behaviour', (req, res) => {
    const parsed = refundBehaviourSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const behaviour = { outcome: parsed.data.outcome, settleAfterMs: parsed.data.settle_after_ms ?? 300 };
    state.setRefundBehaviour(parsed.data.client_id, behaviour);
    res.status(200).json({ scope: parsed.data.client_id ?? 'global', outcome: behaviour.outcome, settle_after_ms: behaviour.settleAfterMs });
  });

  // A client's charges as the tests need them (txid, status, amount, creation), oldest first.
  routes.get('/__control/charges', (req, res) => {
    const clientId = typeof req.query['client_id'] === 'string' ? req.query['client_id'] : '';
    if (!clientId) return fail(res, 400, 'client_id_required', 'send ?client_id=');
    res.status(200).json({
      charges: state.listCharges(clientId).map((c) => ({
        txid: c.txid,
        status: c.status,
        valor: c.request.valor.original,
        criacao: c.criacao.toISOString(),
        devolucoes: c.pix.flatMap((p) => (p.devolucoes ?? []).map((d) => ({ id: d.id, valor: d.valor, status: d.status }))),
      })),
    });
  });

  if (infracoes) routes.use(infracaoControlRoutes(state, infracoes));
  if (recurrences) routes.use(recurrenceControlRoutes(recurrences.book, sender, state, envios));
  if (envios) routes.use(payoutControlRoutes(envios, 'client_id', (clientId) => (state.clientChave(clientId) === undefined ? undefined : clientId), envioJson));

  // Target of `linkVisualizacao`: a bare page with the QR code, like Efí's payment page.
  routes.get('/cob/pagar/:token', async (req, res) => {
    const charge = state.findByLocationToken(req.params['token'] ?? '');
    if (!charge) return fail(res, 404, 'charge_not_found', 'unknown location');
    const image = await qrCodePngDataUrl(charge.pixCopiaECola);
    res
      .status(200)
      .type('html')
      .send(
        `<!doctype html><meta charset="utf-8"><title>Pix ${escapeHtml(charge.txid)}</title>` +
          `<h1>R$ ${escapeHtml(charge.request.valor.original)}</h1><p>Status: ${charge.status}</p>` +
          `<img alt="QR Code Pix" src="${image}"><p><code>${escapeHtml(charge.pixCopiaECola)}</code></p>`,
      );
  });

  return controlPort(routes, {
    logger,
    stats: () => state.stats(),
    deliveries: () => state.listDeliveries(),
    reset: () => {
      infracoes?.clear();
      recurrences?.book.clear();
      envios?.reset();
      cobrancas?.reset();
      state.reset();
    },
    faults: { registry: state.faults, param: 'client_id' },
    ...(recurrences ? { clock: { clock: state.clock, onChange: recurrences.tick } } : {}),
  });
}
