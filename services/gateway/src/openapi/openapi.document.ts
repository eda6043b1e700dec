import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ErrorBodySchema } from '../schemas/error.response.schema';
import { QrCodeParamsSchema, WebhookParamsSchema, WebhookSubPathParamsSchema } from '../schemas/path-params.schema';
import { z } from '../schemas/zod-openapi';
import { BEARER, errorResponses, json, PUBLIC } from './openapi.helpers';
import { registerCardPaths } from './cards.paths';
import { registerCustomerPaths } from './customers.paths';
import { registerDisputePaths } from './disputes.paths';
import { registerDocsPath } from './docs.paths';
import { registerEventPaths } from './events.paths';
import { registerIntegrationPaths } from './integrations.paths';
import { registerPaymentPagePaths } from './payment-page.paths';
import { registerPaymentPaths } from './payments.paths';
import { registerPayoutPaths } from './payouts.paths';
import { registerReconciliationPaths } from './reconciliation.paths';
import { registerRequestLogPaths } from './request-logs.paths';
import { registerAnalyticsPaths } from './analytics.paths';
import { registerProviderPaths } from './provider.paths';
import { registerRoutingPaths } from './routing.paths';
import { registerSubaccountPaths } from './subaccounts.paths';
import { registerSubscriptionPaths } from './subscriptions.paths';
import { registerWebhookPaths } from './webhooks.paths';
import { registerWithdrawalPaths } from './withdrawals.paths';

/** The interface version string (§9). */
export const API_VERSION = '2026-10-01';

/**
 * The OpenAPI 3.1 document of the gateway, built from the same zod schemas that validate requests
 * and type the response mappers, so it cannot drift from the code.
 */
export function buildOpenApiDocument(options: { serverUrl: string }): ReturnType<OpenApiGeneratorV31['generateDocument']> {
  const registry = new OpenAPIRegistry();
  registry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description: 'Chave de API: svc_test_… (modo de teste) ou svc_live_… (modo real).',
  });
  registry.register('Error', ErrorBodySchema);

  registerPaymentPaths(registry);
  registerSubscriptionPaths(registry);
  registerPayoutPaths(registry);
  registerSubaccountPaths(registry);
  registerWithdrawalPaths(registry);
  registerEventPaths(registry);

  registerProviderPaths(registry);
  registerRoutingPaths(registry);
  registerWebhookPaths(registry);
  registerDisputePaths(registry);
  registerCustomerPaths(registry);
  registerCardPaths(registry);
  registerIntegrationPaths(registry);
  registerReconciliationPaths(registry);
  registerAnalyticsPaths(registry);
  registerRequestLogPaths(registry);
  registerDocsPath(registry);
  registerPaymentPagePaths(registry);

  registry.registerPath({
    method: 'get',
    path: '/v1/openapi.json',
    operationId: 'getOpenApiDocument',
    tags: ['Meta'],
    summary: 'Este documento',
    security: PUBLIC,
    responses: { 200: { description: 'Documento OpenAPI 3.1.', content: { 'application/json': { schema: z.record(z.string(), z.unknown()) } } } },
  });

  registry.registerPath({
    method: 'get',
    path: '/qr/{paymentId}.png',
    operationId: 'getPaymentQrCode',
    tags: ['Public'],
    summary: 'Imagem PNG do QR Pix de um pagamento aberto (sem chave)',
    security: PUBLIC,
    request: { params: QrCodeParamsSchema },
    responses: {
      200: { description: 'PNG 400×400.', content: { 'image/png': { schema: z.string().openapi({ format: 'binary' }) } } },
      ...errorResponses('not_found', 'service_unavailable'),
    },
  });

  const webhookResponses = {
    200: { description: 'A resposta que o provedor espera (status e corpo decididos pelo serviço de provedores).' },
    ...errorResponses('webhook_rejected', 'not_found', 'service_unavailable'),
  };
  registry.registerPath({
    method: 'post',
    path: '/webhooks/providers/{accountId}',
    operationId: 'receiveProviderWebhook',
    tags: ['Provider webhooks'],
    summary: 'Recebe notificações de um provedor (uso dos provedores, não dos clientes)',
    security: PUBLIC,
    request: { params: WebhookParamsSchema, body: { content: { '*/*': { schema: z.string().openapi({ format: 'binary' }) } } } },
    responses: webhookResponses,
  });
  registry.registerPath({
    method: 'post',
    path: '/webhooks/providers/{accountId}/{subPath}',
    operationId: 'receiveProviderWebhookSubPath',
    tags: ['Provider webhooks'],
    summary: 'Igual ao anterior, quando o provedor acrescenta um caminho (a Efí acrescenta /pix)',
    security: PUBLIC,
    request: { params: WebhookSubPathParamsSchema, body: { content: { '*/*': { schema: z.string().openapi({ format: 'binary' }) } } } },
    responses: webhookResponses,
  });

  registry.registerPath({
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    tags: ['Meta'],
    summary: 'O processo está de pé',
    security: PUBLIC,
    responses: { 200: json(z.object({ status: z.literal('ok') }), 'Vivo.') },
  });
  registry.registerPath({
    method: 'get',
    path: '/readyz',
    operationId: 'readiness',
    tags: ['Meta'],
    summary: 'Pronto quando os serviços de contas e pagamentos respondem',
    security: PUBLIC,
    responses: {
      200: json(z.object({ status: z.literal('ready'), checks: z.record(z.string(), z.string()) }), 'Pronto.'),
      503: json(z.object({ status: z.literal('not_ready'), checks: z.record(z.string(), z.string()) }), 'Ainda não (ou encerrando).'),
    },
  });

  return new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Orquestra API',
      version: API_VERSION,
      description:
        'Orquestração de pagamentos (Pix, boleto, cartão) sobre várias contas de provedores. Valores em centavos, moeda BRL, ' +
        'mensagens de erro em português. Todas as rotas /v1 exigem Authorization: Bearer <chave>.',
    },
    servers: [{ url: options.serverUrl }],
    security: BEARER,
  });
}
