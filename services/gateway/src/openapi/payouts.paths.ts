import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { CreatePayoutSchema, PayoutIdempotencyHeadersSchema } from '../schemas/create-payout.schema';
import { ListPayoutsQuerySchema } from '../schemas/list-payouts.schema';
import { PayoutIdParamsSchema } from '../schemas/path-params.schema';
import { BalanceListSchema, PayoutDestinationListSchema, PayoutListSchema, PayoutSchema } from '../schemas/payout.response.schema';
import { BEARER, errorResponses, FULL_KEY_ERRORS, json, REPLAYED_HEADER, REQUEST_ID_HEADER } from './openapi.helpers';

const FULL_KEY_ONLY = 'Só chaves completas: chaves restritas não fazem repasses nem veem saldos e chaves salvas (403 restricted_key).';

/** /v1/balances, /v1/payouts…, /v1/payout-destinations (§4 "Balances and payouts"). */
export function registerPayoutPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/balances',
    operationId: 'listBalances',
    tags: ['Payouts'],
    summary: 'Saldo de cada conta de provedor ativa neste modo, e quais fazem repasses pela API',
    description:
      'Uma entrada por conta ativa do modo da chave, com o saldo lido do provedor (guardado por poucos segundos). Uma conta cujo ' +
      'saldo não pôde ser lido agora vem com available, pending e as_of null e o motivo em error; as demais vêm normalmente. ' +
      'payouts_api_enabled diz se o dono ligou os repasses pela API. (A especificação não mostra este formato: é o deste documento.) ' +
      FULL_KEY_ONLY,
    security: BEARER,
    responses: { 200: json(BalanceListSchema, 'Os saldos.'), ...errorResponses(...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/payouts',
    operationId: 'createPayout',
    tags: ['Payouts'],
    summary: 'Cria um repasse: dinheiro da conta de provedor para a conta cadastrada nele ou para uma chave Pix salva',
    description:
      'Exige o cabeçalho Idempotency-Key: a mesma chave com o mesmo corpo devolve o mesmo repasse (201, Idempotent-Replayed: true), ' +
      'nunca um segundo; com outro corpo, 409 idempotency_conflict. O dono da conta precisa ter ligado os repasses pela API ' +
      '(senão 403 payouts_api_disabled). Responde pending ou processing; acompanhe pelos eventos payout.* ou por GET /v1/payouts/{id}. ' +
      'Com uncertain true o provedor ainda não confirmou: não crie outro repasse, o serviço continua consultando. ' +
      '422 quando passaria do limite diário (payout_limit_exceeded), quando falta saldo (insufficient_balance) ou quando o provedor ' +
      'recusa (payout_refused); um provedor que não responde não é erro: o repasse volta uncertain. ' +
      FULL_KEY_ONLY,
    security: BEARER,
    request: {
      headers: PayoutIdempotencyHeadersSchema,
      body: { required: true, content: { 'application/json': { schema: CreatePayoutSchema } } },
    },
    responses: {
      201: {
        description: 'Repasse criado (ou repetido pela Idempotency-Key).',
        headers: { ...REPLAYED_HEADER, ...REQUEST_ID_HEADER },
        content: { 'application/json': { schema: PayoutSchema } },
      },
      ...errorResponses(
        'invalid_json',
        'parameter_missing',
        'parameter_invalid',
        'amount_too_small',
        'metadata_invalid',
        'payouts_api_disabled',
        'idempotency_conflict',
        'payout_limit_exceeded',
        'insufficient_balance',
        'payout_refused',
        ...FULL_KEY_ERRORS,
      ),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/payouts',
    operationId: 'listPayouts',
    tags: ['Payouts'],
    summary: 'Lista repasses (mais novos primeiro)',
    description: FULL_KEY_ONLY,
    security: BEARER,
    request: { query: ListPayoutsQuerySchema },
    responses: { 200: json(PayoutListSchema, 'Uma página de repasses.'), ...errorResponses('parameter_invalid', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/payouts/{id}',
    operationId: 'getPayout',
    tags: ['Payouts'],
    summary: 'Consulta um repasse',
    description: FULL_KEY_ONLY,
    security: BEARER,
    request: { params: PayoutIdParamsSchema },
    responses: { 200: json(PayoutSchema, 'O repasse.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/payouts/{id}/sync',
    operationId: 'syncPayout',
    tags: ['Payouts'],
    summary: 'Pergunta ao provedor o estado do repasse agora e o aplica',
    description:
      'Um repasse pending ou processing (inclusive uncertain) é consultado no provedor; um já final é devolvido como está. ' +
      'Se o provedor não responder agora, o repasse volta como estava e o serviço tenta de novo depois. ' +
      FULL_KEY_ONLY,
    security: BEARER,
    request: { params: PayoutIdParamsSchema },
    responses: {
      200: json(PayoutSchema, 'O repasse, como o provedor o vê agora.'),
      ...errorResponses('not_found', ...FULL_KEY_ERRORS),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/payout-destinations',
    operationId: 'listPayoutDestinations',
    tags: ['Payouts'],
    summary: 'Chaves Pix salvas para repasses, mascaradas',
    description:
      'Só o dono da conta cadastra chaves (no painel, ou npm run owner); pela API elas só são listadas, para usar o id em ' +
      'destination.destination_id de POST /v1/payouts. ' +
      FULL_KEY_ONLY,
    security: BEARER,
    responses: { 200: json(PayoutDestinationListSchema, 'As chaves salvas deste modo.'), ...errorResponses(...FULL_KEY_ERRORS) },
  });
}
