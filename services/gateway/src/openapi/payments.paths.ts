import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { CreatePaymentSchema, IdempotencyHeadersSchema } from '../schemas/create-payment.schema';
import { ListPaymentsQuerySchema } from '../schemas/list-payments.schema';
import { PaymentIdParamsSchema } from '../schemas/path-params.schema';
import { PAYMENT_EXAMPLE, PaymentDetailSchema, PaymentListSchema, PaymentSchema, RefundResultSchema } from '../schemas/payment.response.schema';
import { RefundIdempotencyHeadersSchema, RefundPaymentSchema } from '../schemas/refund-payment.schema';
import { AUTH_ERRORS, BEARER, errorResponses, json, REPLAYED_HEADER, REQUEST_ID_HEADER } from './openapi.helpers';

/** /v1/payments…: create, list, read, cancel, refund, simulate, sync. */
export function registerPaymentPaths(registry: OpenAPIRegistry): void {
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
        headers: { ...REPLAYED_HEADER, ...REQUEST_ID_HEADER },
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
        headers: REPLAYED_HEADER,
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
              // The payment as it is right after the request: the refund is pending, so nothing is refunded yet.
              payment: {
                ...PAYMENT_EXAMPLE,
                status: 'succeeded',
                fee: 20,
                net: 1970,
                next_action: null,
                end_to_end_id: 'E00416968202610011200abcdefghijk',
                expires_at: null,
                updated_at: '2026-10-01T12:05:00.000Z',
              },
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
}
