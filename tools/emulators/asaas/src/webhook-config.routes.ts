/**
 * `POST /webhooks`, `GET /webhooks`, `GET /webhooks/:id`, `DELETE /webhooks/:id` (docs.asaas.com
 * "Criar novo Webhook pela API"). At most 10 per account. The `authToken` is sent back by Asaas in
 * the `asaas-access-token` header of every delivery and is never answered by the API.
 */
import { Router } from 'express';
import { asaasErrors } from './asaas-errors';
import { listJson, pageOf, webhookJson } from './asaas-json';
import { accountOf } from './access-token';
import type { EmulatorState } from './emulator-state';
import { sendJson } from './json-body';
import { asBody, optionalBoolean, optionalString, requiredString } from './request-fields';
import { MAX_WEBHOOKS_PER_ACCOUNT, type SendType } from './webhook-store';

const SEND_TYPES: readonly SendType[] = ['SEQUENTIALLY', 'NON_SEQUENTIALLY'];

function parseUrl(text: string): string {
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return text;
  } catch {
    // fall through
  }
  throw asaasErrors.invalid('url', 'A URL informada é inválida.');
}

function parseEvents(value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || !value.every((e) => typeof e === 'string' && /^[A-Z_]+$/.test(e))) {
    throw asaasErrors.invalid('events', 'Informe ao menos um evento válido.');
  }
  return [...new Set(value as string[])];
}

export function webhookConfigRoutes(state: EmulatorState): Router {
  const router = Router();

  router.post('/webhooks', (req, res) => {
    const account = accountOf(res);
    const body = asBody(req.body);
    const name = requiredString(body, 'name', 255);
    const url = parseUrl(requiredString(body, 'url', 2048));
    const email = optionalString(body, 'email', 255);
    const sendType = requiredString(body, 'sendType', 20) as SendType;
    if (!SEND_TYPES.includes(sendType)) throw asaasErrors.invalid('sendType', 'O tipo de envio informado é inválido.');
    const authToken = optionalString(body, 'authToken', 255);
    if (authToken !== undefined && (authToken.length < 32 || /\s/.test(authToken))) {
      throw asaasErrors.invalid('authToken', 'O token de autenticação deve ter entre 32 e 255 caracteres, sem espaços.');
    }
    const events = parseEvents(body['events']);
    if (state.webhooks.list(account.id).length >= MAX_WEBHOOKS_PER_ACCOUNT) {
      throw asaasErrors.invalidAction(`É permitido no máximo ${MAX_WEBHOOKS_PER_ACCOUNT} webhooks por conta.`);
    }
    const webhook = state.webhooks.create({
      accountId: account.id,
      name,
      url,
      ...(email ? { email } : {}),
      enabled: optionalBoolean(body, 'enabled') ?? true,
      interrupted: optionalBoolean(body, 'interrupted') ?? false,
      ...(authToken ? { authToken } : {}),
      sendType,
      events,
      apiVersion: 3,
    });
    sendJson(res, 200, webhookJson(webhook));
  });

  router.get('/webhooks', (req, res) => {
    sendJson(res, 200, listJson(state.webhooks.list(accountOf(res).id), pageOf(req.query as Record<string, unknown>), webhookJson));
  });

  router.get('/webhooks/:id', (req, res) => {
    const webhook = state.webhooks.get(accountOf(res).id, req.params['id'] ?? '');
    if (!webhook) throw asaasErrors.notFound('Webhook');
    sendJson(res, 200, webhookJson(webhook));
  });

  router.delete('/webhooks/:id', (req, res) => {
    const id = req.params['id'] ?? '';
    if (!state.webhooks.remove(accountOf(res).id, id)) throw asaasErrors.notFound('Webhook');
    sendJson(res, 200, { deleted: true, id });
  });

  return router;
}
