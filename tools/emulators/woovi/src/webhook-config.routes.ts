/**
 * `GET|POST /api/v1/webhook` and `DELETE /api/v1/webhook/:id` (woovi-nodejs-sdk webhook client and
 * tests: body `{webhook:{name, event, url, authorization, isActive}}`, answer `{webhook:{id, …}}`,
 * list `{pageInfo, webhooks}` filterable by `url`). Creating an active one posts Woovi's test
 * notification to it. Mounted under `/api/v1` behind the AppID check.
 */
import { Router } from 'express';
import { z } from 'zod';
import { accountOf } from './auth';
import type { EmulatorState, WebhookRecord } from './emulator-state';
import type { WebhookSender } from './webhook-sender';
import { newGlobalId } from './woovi-ids';
import { wooviErrors } from './woovi-errors';

/** The OPENPIX:* events of Woovi's webhook docs ("Tipos de eventos do Webhook"). */
export const WEBHOOK_EVENTS = [
  'OPENPIX:CHARGE_CREATED',
  'OPENPIX:CHARGE_COMPLETED',
  'OPENPIX:CHARGE_EXPIRED',
  'OPENPIX:CHARGE_COMPLETED_NOT_SAME_CUSTOMER_PAYER',
  'OPENPIX:TRANSACTION_RECEIVED',
  'OPENPIX:TRANSACTION_REFUND_RECEIVED',
  'OPENPIX:MOVEMENT_CONFIRMED',
  'OPENPIX:MOVEMENT_FAILED',
  'OPENPIX:MOVEMENT_REMOVED',
  'OPENPIX:DISPUTE_CREATED',
  'OPENPIX:DISPUTE_ACCEPTED',
  'OPENPIX:DISPUTE_REJECTED',
  'OPENPIX:DISPUTE_CANCELED',
  // Pix Automático (pix-recurring.ts): the first four from Woovi's docs, the last three the emulator's names.
  'PIX_AUTOMATIC_APPROVED',
  'PIX_AUTOMATIC_COBR_COMPLETED',
  'PIX_AUTOMATIC_COBR_TRY_REJECTED',
  'PIX_AUTOMATIC_COBR_REJECTED',
  'PIX_AUTOMATIC_REJECTED',
  'PIX_AUTOMATIC_CANCELED',
  'PIX_AUTOMATIC_EXPIRED',
] as const;

const webhookSchema = z.object({
  webhook: z.object({
    name: z.string().min(1, 'webhook.name é obrigatório'),
    event: z.enum(WEBHOOK_EVENTS, { errorMap: () => ({ message: 'webhook.event inválido' }) }),
    url: z
      .string()
      .url('webhook.url inválida')
      .refine((url) => /^https?:\/\//.test(url), 'webhook.url inválida'),
    authorization: z.string().optional(),
    isActive: z.boolean().optional(),
  }),
});

function webhookJson(w: WebhookRecord) {
  return {
    id: w.id,
    name: w.name,
    url: w.url,
    ...(w.authorization !== undefined ? { authorization: w.authorization } : {}),
    isActive: w.isActive,
    event: w.event,
    createdAt: w.createdAt.toISOString(),
    updatedAt: w.updatedAt.toISOString(),
  };
}

export function webhookConfigRoutes(state: EmulatorState, sender: WebhookSender): Router {
  const router = Router();

  router.get('/webhook', (req, res) => {
    const url = typeof req.query['url'] === 'string' ? req.query['url'] : undefined;
    const webhooks = state.listWebhooks(accountOf(res), url);
    res.status(200).json({
      pageInfo: { skip: 0, limit: 100, totalCount: webhooks.length, hasPreviousPage: false, hasNextPage: false },
      webhooks: webhooks.map(webhookJson),
    });
  });

  router.post('/webhook', (req, res) => {
    const parsed = webhookSchema.safeParse(req.body);
    if (!parsed.success) throw wooviErrors.invalid(parsed.error.issues[0]?.message ?? 'Requisição inválida');
    const { name, event, url, authorization, isActive } = parsed.data.webhook;
    const now = state.now();
    const webhook = state.addWebhook({
      id: newGlobalId('Webhook'),
      accountId: accountOf(res),
      name,
      event,
      url,
      ...(authorization !== undefined ? { authorization } : {}),
      isActive: isActive ?? true,
      createdAt: now,
      updatedAt: now,
    });
    if (webhook.isActive) sender.notifyTest(webhook);
    res.status(200).json({ webhook: webhookJson(webhook) });
  });

  router.delete('/webhook/:id', (req, res) => {
    if (!state.deleteWebhook(accountOf(res), req.params['id'] ?? '')) throw wooviErrors.webhookNotFound();
    res.status(200).json({ status: 'OK' });
  });

  return router;
}
