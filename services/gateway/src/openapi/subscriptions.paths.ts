import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { CreateSubscriptionSchema, SubscriptionIdempotencyHeadersSchema } from '../schemas/create-subscription.schema';
import { ChargeSubscriptionSchema } from '../schemas/charge-subscription.schema';
import { ListSubscriptionsQuerySchema } from '../schemas/list-subscriptions.schema';
import { PaymentSchema } from '../schemas/payment.response.schema';
import { SubscriptionIdParamsSchema } from '../schemas/path-params.schema';
import { SubscriptionDetailSchema, SubscriptionListSchema, SubscriptionSchema } from '../schemas/subscription.response.schema';
import { AUTH_ERRORS, BEARER, errorResponses, json, REPLAYED_HEADER, REQUEST_ID_HEADER } from './openapi.helpers';

/** /v1/subscriptions…: create, list, read, charge a cycle, cancel, simulate (Pix Automático). */
export function registerSubscriptionPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/v1/subscriptions',
    operationId: 'createSubscription',
    tags: ['Subscriptions'],
    summary: 'Cria uma assinatura (Pix Automático)',
    description:
      'Nasce pending, com approval: o QR que o pagador lê no app do banco para autorizar a recorrência e pagar o primeiro ciclo ' +
      '(first_amount). Mesma Idempotency-Key com o mesmo corpo devolve a mesma assinatura (201, cabeçalho Idempotent-Replayed: true). ' +
      'Chaves restritas podem criar assinaturas.',
    security: BEARER,
    request: {
      headers: SubscriptionIdempotencyHeadersSchema,
      body: { required: true, content: { 'application/json': { schema: CreateSubscriptionSchema } } },
    },
    responses: {
      201: {
        description: 'Assinatura criada (ou repetida pela Idempotency-Key), com approval.',
        headers: { ...REPLAYED_HEADER, ...REQUEST_ID_HEADER },
        content: { 'application/json': { schema: SubscriptionSchema } },
      },
      ...errorResponses(
        'invalid_json',
        'parameter_missing',
        'parameter_invalid',
        'amount_too_small',
        'metadata_invalid',
        'missing_address',
        'unauthenticated',
        'idempotency_conflict',
        'idempotency_in_progress',
        'no_eligible_account',
        'provider_rejected',
        'provider_error',
        'provider_unavailable',
        'provider_timeout',
        'service_unavailable',
        'internal',
      ),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/subscriptions',
    operationId: 'listSubscriptions',
    tags: ['Subscriptions'],
    summary: 'Lista assinaturas (mais novas primeiro)',
    description: 'Com chave restrita, lista só as assinaturas criadas por ela. Sem os ciclos (payments): consulte uma assinatura para vê-los.',
    security: BEARER,
    request: { query: ListSubscriptionsQuerySchema },
    responses: { 200: json(SubscriptionListSchema, 'Uma página de assinaturas.'), ...errorResponses('parameter_invalid', ...AUTH_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/subscriptions/{id}',
    operationId: 'getSubscription',
    tags: ['Subscriptions'],
    summary: 'Consulta uma assinatura, com os ciclos cobrados em payments',
    security: BEARER,
    request: { params: SubscriptionIdParamsSchema },
    responses: { 200: json(SubscriptionDetailSchema, 'A assinatura.'), ...errorResponses('not_found', ...AUTH_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/subscriptions/{id}/cancel',
    operationId: 'cancelSubscription',
    tags: ['Subscriptions'],
    summary: 'Cancela uma assinatura: nenhum ciclo novo é cobrado',
    description:
      'Uma assinatura pending ou active fica canceled; cancelar de novo uma cancelada a devolve como está. ' +
      'Uma recusada (refused) ou expirada (expired) não pode ser cancelada (400). Só chaves completas.',
    security: BEARER,
    request: { params: SubscriptionIdParamsSchema },
    responses: {
      200: json(SubscriptionSchema, 'A assinatura cancelada.'),
      ...errorResponses(
        'invalid_request',
        'not_found',
        'restricted_key',
        'provider_rejected',
        'provider_error',
        'provider_unavailable',
        'provider_timeout',
        ...AUTH_ERRORS,
      ),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/subscriptions/{id}/charge',
    operationId: 'chargeSubscription',
    tags: ['Subscriptions'],
    summary: 'Cobra um ciclo da assinatura (Pix Automático)',
    description:
      'Envia ao provedor a cobrança do ciclo em que due_date cai; o banco do pagador debita no dia, sem o pagador agir. ' +
      'Responde o pagamento do ciclo (subscription_id preenchido), pending até o débito. Um ciclo aceita uma cobrança. ' +
      'Nas assinaturas de valor fixo o serviço já envia cada ciclo sozinho, na janela de 2 a 10 dias úteis antes do vencimento; ' +
      'nas de valor variável, cobre cada ciclo por aqui. Não se aplica ao provedor que cria os próprios ciclos (Asaas): 400 invalid_request. ' +
      'Mesma Idempotency-Key com o mesmo corpo devolve o mesmo pagamento. Só chaves completas.',
    security: BEARER,
    request: {
      params: SubscriptionIdParamsSchema,
      headers: SubscriptionIdempotencyHeadersSchema,
      body: { required: false, content: { 'application/json': { schema: ChargeSubscriptionSchema } } },
    },
    responses: {
      201: {
        description: 'O pagamento do ciclo (ou o mesmo, repetido pela Idempotency-Key).',
        headers: { ...REPLAYED_HEADER, ...REQUEST_ID_HEADER },
        content: { 'application/json': { schema: PaymentSchema } },
      },
      ...errorResponses(
        'invalid_json',
        'invalid_request',
        'parameter_missing',
        'parameter_invalid',
        'not_found',
        'restricted_key',
        'idempotency_conflict',
        'provider_rejected',
        'provider_error',
        'provider_unavailable',
        'provider_timeout',
        ...AUTH_ERRORS,
      ),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/subscriptions/{id}/simulate',
    operationId: 'simulateSubscription',
    tags: ['Subscriptions'],
    summary: 'Simula a aprovação do pagador no sandbox (modo de teste): pending → active',
    description: 'Só uma assinatura pending (409 nas outras). Só chaves completas de teste.',
    security: BEARER,
    request: { params: SubscriptionIdParamsSchema },
    responses: {
      200: json(SubscriptionSchema, 'A assinatura, ativa e sem approval.'),
      ...errorResponses(
        'not_found',
        'restricted_key',
        'live_mode_forbidden',
        'payment_not_simulatable',
        'provider_rejected',
        'provider_error',
        'provider_unavailable',
        'provider_timeout',
        ...AUTH_ERRORS,
      ),
    },
  });
}
