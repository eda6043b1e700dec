import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { PayoutIdempotencyHeadersSchema } from '../schemas/create-payout.schema';
import { CreateWithdrawalSchema, ListWithdrawalsQuerySchema } from '../schemas/create-withdrawal.schema';
import { SubaccountIdParamsSchema } from '../schemas/path-params.schema';
import { PayoutListSchema, PayoutSchema } from '../schemas/payout.response.schema';
import { BEARER, errorResponses, FULL_KEY_ERRORS, json, REPLAYED_HEADER, REQUEST_ID_HEADER } from './openapi.helpers';

const TAG = ['Subaccounts'];
const FULL_KEY_ONLY = 'Só chaves completas: chaves restritas não sacam nem veem saques (403 restricted_key).';

/** /v1/subaccounts/{id}/withdrawals (§4 "Subaccounts": withdrawals are payouts with subaccount_id). */
export function registerWithdrawalPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'post',
    path: '/v1/subaccounts/{id}/withdrawals',
    operationId: 'createSubaccountWithdrawal',
    tags: TAG,
    summary: 'Saca o saldo de uma subconta para o destino dela (a chave Pix informada na criação, ou a conta bancária que o provedor tem para ela)',
    description:
      'O saque é um repasse (object payout) com subaccount_id e destination {"type": "subaccount"}: o destino é sempre o da própria ' +
      'subconta, nunca outro. Exige o cabeçalho Idempotency-Key: a mesma chave com o mesmo corpo devolve o mesmo saque (201, ' +
      'Idempotent-Replayed: true); com outro corpo (ou outra subconta), 409 idempotency_conflict. A subconta precisa estar active ' +
      '(senão 409 subaccount_not_active) e o dono precisa ter ligado os repasses pela API (senão 403 payouts_api_disabled). Saques não ' +
      'contam no limite diário de repasses da conta. Acompanhe pelos eventos payout.* ou por GET /v1/payouts/{id}; com uncertain true ' +
      'o provedor ainda não confirmou: não crie outro saque. Em provedores que retiram o saldo inteiro, whole_balance vem true, amount é o ' +
      'valor que saiu e amount_requested o pedido. 422 quando falta saldo (insufficient_balance) ou o provedor recusa (payout_refused). ' +
      FULL_KEY_ONLY,
    security: BEARER,
    request: {
      params: SubaccountIdParamsSchema,
      headers: PayoutIdempotencyHeadersSchema,
      body: { required: true, content: { 'application/json': { schema: CreateWithdrawalSchema } } },
    },
    responses: {
      201: {
        description: 'Saque criado (ou repetido pela Idempotency-Key).',
        headers: { ...REPLAYED_HEADER, ...REQUEST_ID_HEADER },
        content: { 'application/json': { schema: PayoutSchema } },
      },
      ...errorResponses(
        'invalid_json',
        'parameter_missing',
        'parameter_invalid',
        'amount_too_small',
        'metadata_invalid',
        'not_found',
        'payouts_api_disabled',
        'idempotency_conflict',
        'subaccount_not_active',
        'insufficient_balance',
        'payout_refused',
        ...FULL_KEY_ERRORS,
      ),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/subaccounts/{id}/withdrawals',
    operationId: 'listSubaccountWithdrawals',
    tags: TAG,
    summary: 'Lista os saques de uma subconta (mais novos primeiro)',
    description: 'Os saques também aparecem em GET /v1/payouts, com subaccount_id. ' + FULL_KEY_ONLY,
    security: BEARER,
    request: { params: SubaccountIdParamsSchema, query: ListWithdrawalsQuerySchema },
    responses: { 200: json(PayoutListSchema, 'Uma página de saques.'), ...errorResponses('not_found', 'parameter_invalid', ...FULL_KEY_ERRORS) },
  });
}
