/** `GET /v1/chargebacks/:id` (behind the access-token check): the account's chargeback. See chargebacks.ts. */
import { Router } from 'express';
import { accountOf } from './auth';
import { chargebackJson, chargebackNotFound } from './chargebacks';
import type { EmulatorState } from './emulator-state';

export function chargebackRoutes(state: EmulatorState): Router {
  const router = Router();
  router.get('/v1/chargebacks/:id', (req, res) => {
    const id = req.params['id'];
    if (!/^\d{1,24}$/.test(id)) throw chargebackNotFound();
    res.status(200).json(chargebackJson(state.getChargeback(accountOf(res).userId, id)));
  });
  return router;
}
