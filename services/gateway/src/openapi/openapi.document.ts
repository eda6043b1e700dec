import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { CreatePaymentSchema, IdempotencyHeadersSchema } from '../schemas/create-payment.schema';
import { ErrorBodySchema } from '../schemas/error.response.schema';
import { EventListSchema } from '../schemas/event.response.schema';
import { ListEventsQuerySchema } from '../schemas/list-events.schema';
import { ListPaymentsQuerySchema } from '../schemas/list-payments.schema';
import {
  PaymentIdParamsSchema,
  QrCodeParamsSchema,
  WebhookParamsSchema,
  WebhookSubPathParamsSchema,
} from '../schemas/path-params.schema';
import { PaymentDetailSchema, PaymentListSchema, PaymentSchema, RefundResultSchema } from '../schemas/payment.response.schema';
import { RefundIdempotencyHeadersSchema, RefundPaymentSchema } from '../schemas/refund-payment.schema';
import { z } from '../schemas/zod-openapi';
import { AUTH_ERRORS, BEARER, errorResponses, json, PUBLIC } from './openapi.helpers';
import { registerCustomerPaths } from './customers.paths';
import { registerDisputePaths } from './disputes.paths';
import { registerDocsPath } from './docs.paths';
import { registerPaymentPagePaths } from './payment-page.paths';
import { registerProviderPaths } from './provider.paths';
import { registerRoutingPaths } from './routing.paths';
import { registerWebhookPaths } from './webhooks.paths';

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

  registry.registerPath({
    method: 'post',
    path: '/v1/payments',
    operationId: 'createPayment',
    tags: ['Payments'],
    summary: 'Cria um pagamento',
    description:
      'Mesma Idempotency-Key com o mesmo corpo devolve o mesmo pagamento (201, cabeçalho Idempotent-Replayed: true). ' +
      'Chaves restritas podem criar pagamentos.',
    security: BEARER,
    request: {
      headers: IdempotencyHeadersSchema,
      body: { required: true, content: { 'application/json': { schema: CreatePaymentSchema } } },
    },
    responses: {
      201: {
        description: 'Pagamento criado (ou repetido pela Idempotency-Key).',
        headers: {
          'Idempotent-Replayed': { description: 'true quando a resposta repete um pedido anterior.', schema: { type: 'string', enum: ['true'] } },
          'X-Request-Id': { description: 'Id da requisição.', schema: { type: 'string' } },
        },
        content: { 'application/json': { schema: PaymentSchema } },
      },
      ...errorResponses(
        'invalid_json',
        'parameter_missing',
        'parameter_invalid',
        'amount_too_small',
        'metadata_invalid',
        'missing_document',
        'missing_email',
        'unauthenticated',
        'restricted_key',
        'idempotency_conflict',
        'idempotency_in_progress',
        'no_eligible_account',
        'method_not_available',
        'all_providers_failed',
        'provider_timeout',
        'service_unavailable',
        'internal',
      ),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/payments',
    operationId: 'listPayments',
    tags: ['Payments'],
    summary: 'Lista pagamentos (mais novos primeiro)',
    description: 'Com chave restrita, lista só os pagamentos criados por ela.',
    security: BEARER,
    request: { query: ListPaymentsQuerySchema },
    responses: { 200: json(PaymentListSchema, 'Uma página de pagamentos.'), ...errorResponses('parameter_invalid', ...AUTH_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/payments/{id}',
    operationId: 'getPayment',
    tags: ['Payments'],
    summary: 'Consulta um pagamento, com tentativas, reembolsos e eventos',
    description: 'Consulte a cada 5 a 10 segundos enquanto estiver aberto.',
    security: BEARER,
    request: { params: PaymentIdParamsSchema },
    responses: { 200: json(PaymentDetailSchema, 'O pagamento.'), ...errorResponses('not_found', ...AUTH_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/payments/{id}/cancel',
    operationId: 'cancelPayment',
    tags: ['Payments'],
    summary: 'Cancela um pagamento pendente (o Pix deixa de funcionar)',
    security: BEARER,
    request: { params: PaymentIdParamsSchema },
    responses: {
      200: json(PaymentSchema, 'O pagamento cancelado.'),
      ...errorResponses('not_found', 'restricted_key', 'payment_not_cancelable', 'payment_already_paid', 'provider_unavailable', ...AUTH_ERRORS),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/payments/{id}/refund',
    operationId: 'refundPayment',
    tags: ['Payments'],
    summary: 'Reembolsa um pagamento pago, no todo ou em parte',
    description:
      'Sem amount, reembolsa todo o valor que ainda pode ser reembolsado. Reembolsos parciais se somam até o valor pago; ' +
      'reembolsos em processamento (pending) já contam contra o restante. O reembolso nasce pending e fica succeeded ou failed ' +
      'quando o provedor confirma (notificação do provedor ou POST /sync); amount_refunded e o status do pagamento ' +
      '(partially_refunded, refunded) mudam quando um reembolso é concluído. Mesma Idempotency-Key com o mesmo corpo devolve o ' +
      'mesmo reembolso (201, Idempotent-Replayed: true), nunca um segundo. Só chaves completas.',
    security: BEARER,
    request: {
      params: PaymentIdParamsSchema,
      headers: RefundIdempotencyHeadersSchema,
      body: { required: false, content: { 'application/json': { schema: RefundPaymentSchema } } },
    },
    responses: {
      201: {
        description: 'Reembolso criado (ou repetido pela Idempotency-Key), com o pagamento como ficou.',
        headers: {
          'Idempotent-Replayed': { description: 'true quando a resposta repete um pedido anterior.', schema: { type: 'string', enum: ['true'] } },
        },
        content: {
          'application/json': {
            schema: RefundResultSchema,
            example: {
              refund: {
                id: 're_01j9z0k3x7m2q8r4t6v8w0y2a4',
                object: 'refund',
                payment_id: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4',
                amount: 500,
                status: 'pending',
                reason: 'Produto devolvido',
                source: 'service',
                provider_refund_id: 're01j9z0k3x7m2q8r4t6v8w0y2a4',
                failure_code: null,
                failure_reason: null,
                created_at: '2026-10-01T12:10:00.000Z',
                updated_at: '2026-10-01T12:10:00.000Z',
              },
              payment: { id: 'pay_01j9z0k3x7m2q8r4t6v8w0y2a4', object: 'payment', status: 'succeeded', amount: 1990, amount_refunded: 0 },
            },
          },
        },
      },
      ...errorResponses(
        'invalid_json',
        'parameter_invalid',
        'amount_too_small',
        'refund_amount_exceeds_remaining',
        'not_found',
        'restricted_key',
        'payment_not_refundable',
        'idempotency_conflict',
        'idempotency_in_progress',
        'refund_not_supported',
        'provider_rejected',
        'provider_unavailable',
        'provider_timeout',
        ...AUTH_ERRORS,
      ),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/payments/{id}/simulate',
    operationId: 'simulatePayment',
    tags: ['Payments'],
    summary: 'Simula o pagamento no sandbox (modo de teste)',
    security: BEARER,
    request: { params: PaymentIdParamsSchema },
    responses: {
      200: json(PaymentSchema, 'O pagamento.'),
      ...errorResponses('not_found', 'restricted_key', 'live_mode_forbidden', 'payment_not_simulatable', ...AUTH_ERRORS),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/payments/{id}/sync',
    operationId: 'syncPayment',
    tags: ['Payments'],
    summary: 'Consulta o pagamento no provedor agora e aplica o que mudou',
    description: 'Útil quando uma notificação do provedor se perdeu. Só chaves completas.',
    security: BEARER,
    request: { params: PaymentIdParamsSchema },
    responses: {
      200: json(PaymentSchema, 'O pagamento, relido do provedor.'),
      ...errorResponses('not_found', 'restricted_key', 'provider_unavailable', 'provider_timeout', 'provider_error', ...AUTH_ERRORS),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/events',
    operationId: 'listEvents',
    tags: ['Events'],
    summary: 'Lista eventos (mais novos primeiro)',
    description:
      'Use o id do evento para não processar o mesmo evento duas vezes. Filtros: type (um tipo, um prefixo como payment.* ou *), ' +
      'created[gte] e created[lte] (Unix, segundos), payment_id, resource_id. Chaves restritas só veem eventos do que elas criaram.',
    security: BEARER,
    request: { query: ListEventsQuerySchema },
    responses: {
      200: json(EventListSchema, 'Uma página de eventos.'),
      ...errorResponses('parameter_invalid', ...AUTH_ERRORS),
    },
  });

  registerProviderPaths(registry);
  registerRoutingPaths(registry);
  registerWebhookPaths(registry);
  registerDisputePaths(registry);
  registerCustomerPaths(registry);
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
