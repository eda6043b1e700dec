import { Router } from 'express';
import type { ReadinessCheck } from '../health/readiness.probe';

/**
 * `/healthz`: the process is up (liveness; never looks downstream, so a sick dependency does not
 * get the gateway restarted). `/readyz`: accounts and payments answer SERVING (readiness).
 */
export function healthRoutes(readiness: ReadinessCheck): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.setHeader('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    const report = await readiness.check();
    res
      .status(report.ready ? 200 : 503)
      .setHeader('Cache-Control', 'no-store')
      .json({ status: report.ready ? 'ready' : 'not_ready', checks: report.checks });
  });
  return router;
}
