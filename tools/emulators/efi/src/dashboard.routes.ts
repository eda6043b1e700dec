/**
 * Control routes that act "in Efí's dashboard", behind the integrator's back, so reconciliation
 * can meet differences on purpose (issue 18):
 * - `POST /__control/dashboard-charges` makes an immediate charge the integrator never asked for
 *   (a txid Efí chooses, no reference of ours), at any status and creation time;
 * - `POST /__control/charges/:txid/status` moves a charge to another status WITHOUT a webhook.
 * Statuses are named the same way on every emulator (pending, paid, canceled, expired, refunded)
 * and become Banco Central ones here: ATIVA, CONCLUIDA (+ pix[]), REMOVIDA_PELO_USUARIO_RECEBEDOR,
 * REMOVIDA_PELO_PSP, and CONCLUIDA with a settled devolução of what was left (the API Pix has no
 * refunded status).
 */
import { Router } from 'express';
import { z } from 'zod';
import { dynamicBrCode, sendControlError as fail, type Merchant } from '../../kit';
import { parseCobRequest } from './cob-validation';
import { cobJson } from './cob.routes';
import type { EmulatorState, StoredCharge } from './emulator-state';
import type { EnvioBook } from './envio.routes';
import { newDashboardRefundId, newDashboardTxid, newLocationToken } from './pix-ids';

export interface DashboardOptions {
  merchant: Merchant;
  locationHost: string;
}

const STATUSES = ['pending', 'paid', 'canceled', 'expired', 'refunded'] as const;
type DashboardStatus = (typeof STATUSES)[number];

const createSchema = z
  .object({
    client_id: z.string().min(1),
    amount: z.number().int().min(1).max(99_999_999_999),
    method: z.literal('pix', { errorMap: () => ({ message: 'method must be "pix": GET /v2/cob lists immediate Pix charges only' }) }).default('pix'),
    status: z.enum(STATUSES).default('pending'),
    created_at: z.string().datetime({ offset: true }).optional(),
    expiracao: z.number().int().min(1).optional(),
  })
  .strict();

const statusSchema = z.object({ status: z.enum(STATUSES), client_id: z.string().min(1).optional() }).strict();

function centsToValor(cents: number): string {
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** Moves `charge` to `target` with no webhook; a message when the move is not possible. */
function moveCharge(state: EmulatorState, charge: StoredCharge, target: DashboardStatus, envios?: EnvioBook): string | undefined {
  switch (target) {
    case 'pending':
      return charge.status === 'ATIVA' ? undefined : `a charge ${charge.status} cannot become ATIVA again`;
    case 'paid': {
      if (charge.status !== 'ATIVA') return `charge is ${charge.status}, only ATIVA can be paid`;
      const pix = state.settleCharge(charge, 'Pago pelo painel do emulador');
      envios?.credit(charge.clientId, Math.round(Number(pix.valor) * 100));
      return undefined;
    }
    case 'canceled':
    case 'expired':
      if (charge.status !== 'ATIVA') return `charge is ${charge.status}, only ATIVA can be removed`;
      charge.status = target === 'canceled' ? 'REMOVIDA_PELO_USUARIO_RECEBEDOR' : 'REMOVIDA_PELO_PSP';
      charge.revisao += 1;
      return undefined;
    case 'refunded': {
      const pix = charge.status === 'CONCLUIDA' ? charge.pix[0] : undefined;
      if (!pix) return `charge is ${charge.status}, only CONCLUIDA can be refunded`;
      const returned = (pix.devolucoes ?? []).filter((d) => d.status !== 'NAO_REALIZADO').reduce((sum, d) => sum + Math.round(Number(d.valor) * 100), 0);
      const left = Math.round(Number(pix.valor) * 100) - returned;
      if (left <= 0) return 'charge is already fully refunded';
      const devolucao = state.createDevolucao(pix, { id: newDashboardRefundId(), valor: centsToValor(left), natureza: 'ORIGINAL', descricao: 'Devolução pelo painel' });
      state.settleDevolucao(devolucao, 'DEVOLVIDO');
      envios?.debit(charge.clientId, left);
      return undefined;
    }
  }
}

export function dashboardRoutes(state: EmulatorState, options: DashboardOptions, envios?: EnvioBook): Router {
  const routes = Router();

  routes.post('/__control/dashboard-charges', (req, res) => {
    const parsed = createSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const { client_id: clientId, amount, status, created_at: createdAt, expiracao } = parsed.data;
    const chave = state.clientChave(clientId);
    if (chave === undefined) return fail(res, 404, 'client_not_found', `no client ${clientId}`);
    const location = `${options.locationHost}/v2/${newLocationToken()}`;
    const charge = state.createCharge({
      clientId,
      txid: newDashboardTxid(),
      revisao: 0,
      criacao: createdAt ? new Date(createdAt) : state.now(),
      request: parseCobRequest({ calendario: { expiracao: expiracao ?? 86_400 }, valor: { original: centsToValor(amount) }, chave }),
      status: 'ATIVA',
      loc: { id: state.allocateLocId(), location, tipoCob: 'cob' },
      pixCopiaECola: dynamicBrCode(location, options.merchant),
      pix: [],
    });
    // Paid first, then refunded: a refunded charge was paid.
    if (status === 'paid' || status === 'refunded') moveCharge(state, charge, 'paid', envios);
    if (status !== 'pending' && status !== 'paid') moveCharge(state, charge, status, envios);
    res.status(201).json({ client_id: clientId, ...cobJson(charge) });
  });

  routes.post('/__control/charges/:txid/status', (req, res) => {
    const parsed = statusSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const txid = req.params['txid'] ?? '';
    const [charge, ...others] = state.findChargesByTxid(txid).filter((c) => !parsed.data.client_id || c.clientId === parsed.data.client_id);
    if (!charge) return fail(res, 404, 'charge_not_found', `no charge with txid ${txid}`);
    if (others.length > 0) return fail(res, 409, 'ambiguous_txid', 'several clients have this txid: send client_id');
    const refused = moveCharge(state, charge, parsed.data.status, envios);
    if (refused) return fail(res, 409, 'status_change_refused', refused);
    res.status(200).json({ client_id: charge.clientId, ...cobJson(charge) });
  });

  return routes;
}
