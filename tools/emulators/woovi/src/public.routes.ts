/**
 * Routes Woovi serves without an AppID: the webhook public keys (a list, so keys can rotate:
 * "aceite qualquer chave da lista", `is_current` marks the signing one), the charge's QR image
 * (`qrCodeImage`, `?size=` 600..4096, default 1024), and a bare payment page (`paymentLinkUrl`).
 */
import { Router } from 'express';
import { escapeHtml, qrCodePng } from '../../kit';
import type { EmulatorState } from './emulator-state';
import type { SigningKeys } from './signing-keys';
import { wooviErrors } from './woovi-errors';

/** Cents → "12,34" for display only (string arithmetic). */
function reais(cents: number): string {
  const digits = String(cents).padStart(3, '0');
  return `${digits.slice(0, -2)},${digits.slice(-2)}`;
}

export function publicRoutes(state: EmulatorState, keys: SigningKeys): Router {
  const router = Router();

  router.get('/api/v1/webhook/public-keys', (_req, res) => {
    res.status(200).json({ public_keys: [{ key: keys.publicKeyPem, is_current: true }] });
  });

  router.get('/openpix/charge/brcode/image/:file', async (req, res) => {
    const match = /^(.+)\.png$/.exec(req.params['file'] ?? '');
    const charge = match?.[1] ? state.findByPaymentLinkId(match[1]) : undefined;
    if (!charge) throw wooviErrors.chargeNotFound();
    const sizeText = typeof req.query['size'] === 'string' ? req.query['size'] : '1024';
    const size = /^\d+$/.test(sizeText) ? Number(sizeText) : NaN;
    if (!(size >= 600 && size <= 4096)) throw wooviErrors.invalid('size deve estar entre 600 e 4096');
    res.status(200).type('png').send(await qrCodePng(charge.brCode, size));
  });

  router.get('/pay/:paymentLinkID', (req, res) => {
    const charge = state.findByPaymentLinkId(req.params['paymentLinkID'] ?? '');
    if (!charge) throw wooviErrors.chargeNotFound();
    res
      .status(200)
      .type('html')
      .send(
        `<!doctype html><meta charset="utf-8"><title>Pix ${escapeHtml(charge.correlationID)}</title>` +
          `<h1>R$ ${reais(charge.value)}</h1><p>Status: ${charge.status}</p>` +
          `<img alt="QR Code Pix" width="300" src="/openpix/charge/brcode/image/${charge.paymentLinkID}.png?size=600">` +
          `<p><code>${escapeHtml(charge.brCode)}</code></p>`,
      );
  });

  return router;
}
