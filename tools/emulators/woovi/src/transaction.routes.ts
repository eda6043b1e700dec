/**
 * `GET /api/v1/transaction/:id` (docs "Obter uma transação"): a Pix received, by Woovi's
 * transactionID or the end-to-end id of the Pix, answering `{transaction{charge, value, time,
 * endToEndId, transactionID, type, globalID, infoPagador?}}`. Integrators use it to find the charge
 * a MED dispute (which names only the end-to-end id) is about.
 */
import { Router } from 'express';
import { accountOf } from './auth';
import { chargeJson } from './charge-json';
import type { EmulatorState } from './emulator-state';
import { wooviErrors } from './woovi-errors';

export function transactionRoutes(state: EmulatorState): Router {
  const router = Router();
  router.get('/transaction/:id', (req, res) => {
    const id = req.params['id'] ?? '';
    const charge = state.listCharges(accountOf(res)).find((c) => c.pix && (c.pix.endToEndId === id || c.transactionID === id));
    if (!charge?.pix) throw wooviErrors.invalid('Transação não encontrada');
    res.status(200).json({
      transaction: {
        charge: chargeJson(state, charge),
        value: charge.value,
        time: charge.pix.time.toISOString(),
        endToEndId: charge.pix.endToEndId,
        transactionID: charge.transactionID,
        type: 'PAYMENT',
        globalID: Buffer.from(`PixTransaction:${charge.transactionID}`).toString('base64'),
        ...(charge.pix.infoPagador ? { infoPagador: charge.pix.infoPagador } : {}),
      },
    });
  });
  return router;
}
