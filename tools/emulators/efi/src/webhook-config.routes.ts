/**
 * `PUT|GET|DELETE /v2/webhook/:chave`: one webhook URL per Pix key of the calling account.
 * Registration checks the receiver first (see WebhookSender.verifyReceiver) and records whether
 * the integrator asked to skip the mTLS check with `x-skip-mtls-checking: true`.
 */
import { Router } from 'express';
import { clientOf } from './cob.routes';
import type { EmulatorState } from './emulator-state';
import { pixErrors } from './pix-errors';
import type { WebhookSender } from './webhook-sender';

export function webhookConfigRoutes(state: EmulatorState, sender: WebhookSender): Router {
  const router = Router();

  router.put('/webhook/:chave', async (req, res) => {
    const clientId = clientOf(res);
    const chave = req.params['chave'] ?? '';
    if (chave !== state.clientChave(clientId)) throw pixErrors.chaveInvalida();
    const webhookUrl = (req.body as { webhookUrl?: unknown } | undefined)?.webhookUrl;
    if (typeof webhookUrl !== 'string' || webhookUrl.length === 0) throw pixErrors.valorInvalido('URL inválida');
    const skipMtlsChecking = String(req.headers['x-skip-mtls-checking'] ?? '').toLowerCase() === 'true';
    await sender.verifyReceiver(clientId, webhookUrl, skipMtlsChecking);
    state.setWebhook({ clientId, chave, webhookUrl, skipMtlsChecking, criacao: state.now() });
    res.status(201).json({ webhookUrl });
  });

  router.get('/webhook/:chave', (req, res) => {
    const registration = state.getWebhook(clientOf(res), req.params['chave'] ?? '');
    if (!registration) throw pixErrors.webhookNaoEncontrado();
    res.status(200).json({
      webhookUrl: registration.webhookUrl,
      chave: registration.chave,
      criacao: registration.criacao.toISOString(),
    });
  });

  router.delete('/webhook/:chave', (req, res) => {
    if (!state.deleteWebhook(clientOf(res), req.params['chave'] ?? '')) throw pixErrors.webhookNaoEncontrado();
    res.status(204).end();
  });

  return router;
}
