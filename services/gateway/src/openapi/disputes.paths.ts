import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { DisputeEvidenceSchema, DisputeListSchema, DisputeSchema, ListDisputesQuerySchema, SimulateDisputeSchema } from '../schemas/dispute.schema';
import { DisputeIdParamsSchema, PaymentIdParamsSchema } from '../schemas/path-params.schema';
import { BEARER, errorResponses, FULL_KEY_ERRORS, json } from './openapi.helpers';

const TAG = ['Disputes'];

/** Disputes (MED, chargebacks): simulate in test mode, list, read, answer with evidence. */
export function registerDisputePaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/v1/payments/{id}/simulate-dispute',
    operationId: 'simulateDispute',
    tags: TAG,
    summary: 'Simula uma disputa (MED no Pix, chargeback no cartão) em um pagamento pago, só no modo de teste',
    description:
      'Abre a disputa como o banco do pagador faria: status open, prazo due_at (7 dias para MED, 10 para chargeback). ' +
      'Sem resposta até o prazo, a disputa é perdida e o valor volta ao pagador (um reembolso com source provider no pagamento).',
    security: BEARER,
    request: {
      params: PaymentIdParamsSchema,
      body: { required: false, content: { 'application/json': { schema: SimulateDisputeSchema } } },
    },
    responses: {
      201: json(DisputeSchema, 'A disputa aberta.'),
      ...errorResponses('invalid_json', 'parameter_invalid', 'not_found', 'payment_not_disputable', 'live_mode_forbidden', ...FULL_KEY_ERRORS),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/disputes',
    operationId: 'listDisputes',
    tags: TAG,
    summary: 'Lista as disputas do modo da chave, mais novas primeiro (status=open: as que aguardam resposta)',
    security: BEARER,
    request: { query: ListDisputesQuerySchema },
    responses: { 200: json(DisputeListSchema, 'As disputas.'), ...errorResponses('parameter_invalid', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/disputes/{id}',
    operationId: 'getDispute',
    tags: TAG,
    summary: 'Consulta uma disputa',
    security: BEARER,
    request: { params: DisputeIdParamsSchema },
    responses: { 200: json(DisputeSchema, 'A disputa.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/disputes/{id}/evidence',
    operationId: 'submitDisputeEvidence',
    tags: TAG,
    summary: 'Responde uma disputa aberta com evidências (só para provedores que as recebem pela API)',
    security: BEARER,
    request: { params: DisputeIdParamsSchema, body: { required: true, content: { 'application/json': { schema: DisputeEvidenceSchema } } } },
    responses: {
      200: json(DisputeSchema, 'A disputa, agora under_review.'),
      ...errorResponses('invalid_json', 'parameter_missing', 'parameter_invalid', 'not_found', 'dispute_not_open', 'dispute_evidence_not_supported', ...FULL_KEY_ERRORS),
    },
  });
}
