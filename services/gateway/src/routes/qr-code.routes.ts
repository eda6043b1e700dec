import { AppError } from '@orquestra/platform';
import { Router } from 'express';
import QRCode from 'qrcode';
import type { RouteContext } from '../http/app.deps';
import { rpcOptions } from '../http/request-context';
import { PaymentIdSchema } from '../schemas/path-params.schema';

/**
 * GET /qr/{paymentId}.png — public (no key): the image behind `next_action.qr_code_url`, for
 * e-mails and chat embeds. Only an open Pix has a QR; anything else is 404. Browsers and chat
 * previews may keep it 5 minutes: a QR paid or canceled meanwhile simply stops being payable.
 */
export function qrCodeRoutes(context: RouteContext): Router {
  const router = Router();
  router.get('/qr/:paymentId.png', async (req, res) => {
    const paymentId = PaymentIdSchema.safeParse(req.params['paymentId']);
    if (!paymentId.success) throw new AppError('not_found', { param: 'paymentId' });
    const { qr_code: qrCode } = await context.clients.payments.getPaymentQrCode(
      { payment_id: paymentId.data },
      rpcOptions(res),
    );
    if (!qrCode) throw new AppError('not_found', { param: 'paymentId' });
    const png = await QRCode.toBuffer(qrCode, { type: 'png', width: 400, margin: 2, errorCorrectionLevel: 'M' });
    res.status(200).setHeader('Content-Type', 'image/png').setHeader('Cache-Control', 'public, max-age=300').send(png);
  });
  return router;
}
