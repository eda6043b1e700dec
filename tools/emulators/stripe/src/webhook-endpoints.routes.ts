/**
 * `/v1/webhook_endpoints` (docs.stripe.com/api/webhook_endpoints): create (answers the signing
 * `secret` — only here, never again), list, retrieve and delete. Mounted behind the API-key check.
 */
import { Router } from 'express';
import { accountOf } from './auth';
import type { EmulatorState, WebhookEndpoint } from './emulator-state';
import { API_VERSION } from './events';
import { booleanParam, metadataParam, objectParam, queryString, rejectUnknown, requiredString, stringArrayParam, stringParam } from './form-params';
import { stripeErrors } from './stripe-errors';
import { newId, newWebhookSecret } from './stripe-ids';

const EVENT_NAME = /^[a-z_]+(\.[a-z_]+)+$/;

export function webhookEndpointJson(endpoint: WebhookEndpoint, livemode: boolean, withSecret = false) {
  return {
    id: endpoint.id,
    object: 'webhook_endpoint',
    api_version: endpoint.apiVersion,
    application: null,
    created: endpoint.created,
    description: endpoint.description,
    enabled_events: [...endpoint.enabledEvents],
    livemode,
    metadata: { ...endpoint.metadata },
    ...(withSecret ? { secret: endpoint.secret } : {}),
    status: 'enabled',
    url: endpoint.url,
  };
}

function parseUrl(text: string, livemode: boolean): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw stripeErrors.invalidValue('url', `Invalid URL: ${text}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw stripeErrors.invalidValue('url', `Invalid URL: ${text}`);
  // Stripe refuses plain http for live-mode endpoints; test mode (and this emulator's local receivers) may use it.
  if (livemode && url.protocol !== 'https:') throw stripeErrors.invalidValue('url', 'Invalid URL: URLs must use HTTPS in live mode.');
  return text;
}

export function webhookEndpointRoutes(state: EmulatorState): Router {
  const router = Router();

  router.post('/webhook_endpoints', (req, res) => {
    const account = accountOf(res);
    const body = objectParam(req.body, '');
    rejectUnknown(body, ['url', 'enabled_events', 'api_version', 'description', 'metadata', 'connect', 'expand']);
    const url = parseUrl(requiredString(body['url'], 'url'), account.livemode);
    const events = stringArrayParam(body['enabled_events'], 'enabled_events');
    if (!events || events.length === 0) throw stripeErrors.parameterMissing('enabled_events');
    events.forEach((event, index) => {
      if (event !== '*' && !EVENT_NAME.test(event)) throw stripeErrors.invalidValue(`enabled_events[${index}]`, `Invalid enabled_events[${index}]: ${event} is not a valid event type`);
    });
    const apiVersion = stringParam(body['api_version'], 'api_version');
    if (apiVersion !== undefined && !/^\d{4}-\d{2}-\d{2}(\.[a-z]+)?$/.test(apiVersion)) throw stripeErrors.invalidValue('api_version', `Invalid API version: ${apiVersion}`);
    const endpoint: WebhookEndpoint = {
      id: newId('we'),
      accountId: account.id,
      url,
      enabledEvents: [...new Set(events)],
      secret: newWebhookSecret(),
      apiVersion: apiVersion ?? API_VERSION,
      description: stringParam(body['description'], 'description') ?? null,
      metadata: metadataParam(body['metadata']),
      created: state.nowSeconds(),
      ...(booleanParam(body['connect'], 'connect') ? { connect: true } : {}),
    };
    state.addEndpoint(endpoint);
    res.status(200).json(webhookEndpointJson(endpoint, account.livemode, true));
  });

  router.get('/webhook_endpoints', (req, res) => {
    const account = accountOf(res);
    const limit = Number(queryString(req, 'limit') ?? '10');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw stripeErrors.invalidValue('limit', 'This value must be between 1 and 100.');
    const all = state.listEndpoints(account.id);
    res.status(200).json({
      object: 'list',
      data: all.slice(0, limit).map((e) => webhookEndpointJson(e, account.livemode)),
      has_more: all.length > limit,
      url: '/v1/webhook_endpoints',
    });
  });

  router.get('/webhook_endpoints/:id', (req, res) => {
    const account = accountOf(res);
    res.status(200).json(webhookEndpointJson(state.getEndpoint(account.id, req.params['id'] ?? ''), account.livemode));
  });

  router.delete('/webhook_endpoints/:id', (req, res) => {
    const endpoint = state.deleteEndpoint(accountOf(res).id, req.params['id'] ?? '');
    res.status(200).json({ id: endpoint.id, object: 'webhook_endpoint', deleted: true });
  });

  return router;
}
