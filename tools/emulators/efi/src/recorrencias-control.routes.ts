/**
 * The payer's bank of Pix Automático, on the control port: read a recurrence with its recurring
 * charges (`GET /__control/recs/:idRec`), approve or refuse a recurrence
 * (journeys 1 and 2; journey 3 approves by paying its immediate charge through
 * `/__control/charges/:txid/pay`), and settle, fail or reject a recurring charge's scheduled
 * attempt. Every change is notified to the client's `webhookrec`/`webhookcobr` as the API's are.
 * An attempt is settled or failed only on or after its date: tests move the clock
 * (`POST /__control/clock`) to run cycles on schedule.
 */
import { Router, type Response } from 'express';
import { z } from 'zod';
import { sendControlError as fail } from '../../kit';
import type { EmulatorState } from './emulator-state';
import { EfiApiError } from './pix-errors';
import type { Changes, RecurrenceBook, StoredCobr } from './recorrencias';
import { cobrJson, notifyChanges, recJson } from './recorrencias.routes';
import type { EnvioBook } from './envio.routes';
import type { WebhookSender } from './webhook-sender';

const cobrBody = z.object({ client_id: z.string().optional(), motivo: z.string().max(140).optional() }).strict();

/** Runs a book operation, answering its refusal as 409 with the API's explanation. */
function attempt(res: Response, run: () => Changes): Changes | undefined {
  try {
    return run();
  } catch (err) {
    if (!(err instanceof EfiApiError)) throw err;
    const body = err.body as { detail?: string };
    fail(res, 409, 'invalid_state', body.detail ?? err.message);
    return undefined;
  }
}

/**
 * `received`: where a paid charge's Pix is kept, so it can be refunded (`PUT /pix/:e2eId/devolucao`)
 * like the Pix that paid a cob. `balance`: the accounts' balances (envio.routes.ts), which a
 * recurring charge paid fills.
 */
export function recurrenceControlRoutes(book: RecurrenceBook, sender: WebhookSender, received: Pick<EmulatorState, 'recordCobrPix'>, balance?: Pick<EnvioBook, 'credit'>): Router {
  const routes = Router();

  routes.get('/__control/recs/:idRec', (req, res) => {
    const rec = book.findRec(req.params['idRec'] ?? '');
    if (!rec) return fail(res, 404, 'rec_not_found', 'unknown idRec');
    // Its recurring charges too, in every status: tests count them (one per cycle, never two).
    res.status(200).json({ ...recJson(book, rec), client_id: rec.clientId, jornada: book.jornada(rec), cobrs: book.cobrsOf(rec.idRec).map((cobr) => cobrJson(book, cobr)) });
  });

  for (const action of ['approve', 'refuse'] as const) {
    routes.post(`/__control/recs/:idRec/${action}`, (req, res) => {
      const idRec = req.params['idRec'] ?? '';
      const rec = book.findRec(idRec);
      if (!rec) return fail(res, 404, 'rec_not_found', 'unknown idRec');
      if (action === 'approve' && book.jornada(rec) === 'JORNADA_3') {
        return fail(res, 409, 'invalid_state', 'a journey-3 recurrence is approved by paying its immediate charge (/__control/charges/:txid/pay)');
      }
      const changes = attempt(res, () => (action === 'approve' ? book.approve(rec) : book.refuse(rec)));
      if (!changes) return;
      notifyChanges(book, sender, changes);
      res.status(200).json(recJson(book, rec));
    });
  }

  const findCobr = (res: Response, txid: string, clientId: string | undefined): StoredCobr | undefined => {
    const candidates = book.findCobrs(txid).filter((c) => !clientId || c.clientId === clientId);
    if (candidates.length === 0) return void fail(res, 404, 'cobr_not_found', `no recurring charge with txid ${txid}`);
    if (candidates.length > 1) return void fail(res, 409, 'ambiguous_txid', 'several clients have this txid: send client_id');
    return candidates[0];
  };

  // What the payer's bank has scheduled for a recurring charge (its attempts): tests wait on it.
  routes.get('/__control/cobr/:txid', (req, res) => {
    const clientId = typeof req.query['client_id'] === 'string' ? req.query['client_id'] : undefined;
    const cobr = findCobr(res, req.params['txid'] ?? '', clientId);
    if (cobr) res.status(200).json(cobrJson(book, cobr));
  });

  for (const action of ['pay', 'fail', 'reject'] as const) {
    routes.post(`/__control/cobr/:txid/${action}`, (req, res) => {
      const parsed = cobrBody.safeParse(req.body ?? {});
      if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
      const cobr = findCobr(res, req.params['txid'] ?? '', parsed.data.client_id);
      if (!cobr) return;
      const changes = attempt(res, () =>
        action === 'pay' ? book.pay(cobr) : action === 'fail' ? book.fail(cobr, parsed.data.motivo ?? 'Saldo insuficiente') : book.reject(cobr),
      );
      if (!changes) return;
      if (action === 'pay') {
        // The settled attempt (the scheduled one or a retry) is the Pix received: its endToEndId and the cobr's txid.
        const settled = cobr.tentativas.find((t) => t.status === 'LIQUIDADA');
        if (settled) received.recordCobrPix(cobr.clientId, cobr.txid, { endToEndId: settled.endToEndId, valor: cobr.valorOriginal });
        balance?.credit(cobr.clientId, Math.round(Number(cobr.valorOriginal) * 100));
      }
      notifyChanges(book, sender, changes);
      res.status(200).json(cobrJson(book, cobr));
    });
  }

  return routes;
}
