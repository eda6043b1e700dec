import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import {
  CardIdParamsSchema,
  CardListSchema,
  CardSchema,
  CardsConfigSchema,
  DeletedCardSchema,
  ListCardsQuerySchema,
  SaveCardSchema,
  TokenizeCardSchema,
  TokenizeResultSchema,
  UpdateCardsConfigSchema,
} from '../schemas/card.schema';
import { z } from '../schemas/zod-openapi';
import { AUTH_ERRORS, BEARER, errorResponses, FULL_KEY_ERRORS, json, PUBLIC } from './openapi.helpers';

const FULL_KEY_ONLY = 'Só chaves completas (chaves restritas: 403 restricted_key).';

/** /v1/cards/config, /v1/cards…, and the card fields (§4 Saved cards). */
export function registerCardPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/cards/config',
    operationId: 'getCardsConfig',
    tags: ['Cards'],
    summary: 'Configuração dos campos de cartão neste modo: script, chave publicável e sites autorizados',
    description:
      'A publishable_key (pk_test_… ou pk_live_…) é criada na primeira leitura e não é segredo: vai na página da loja. ' +
      'Inclua o script e chame Orquestra.cardFields({ publishableKey, container }); os campos ficam num iframe deste domínio ' +
      'e a sua página nunca vê o número do cartão. Chaves restritas podem ler.',
    security: BEARER,
    responses: { 200: json(CardsConfigSchema, 'A configuração.'), ...errorResponses(...AUTH_ERRORS) },
  });

  registry.registerPath({
    method: 'patch',
    path: '/v1/cards/config',
    operationId: 'updateCardsConfig',
    tags: ['Cards'],
    summary: 'Define os sites que podem mostrar os campos de cartão',
    description: `allowed_origins substitui a lista inteira; lista vazia libera qualquer site. ${FULL_KEY_ONLY}`,
    security: BEARER,
    request: { body: { required: true, content: { 'application/json': { schema: UpdateCardsConfigSchema } } } },
    responses: {
      200: json(CardsConfigSchema, 'A configuração nova.'),
      ...errorResponses('invalid_json', 'parameter_missing', 'parameter_invalid', ...FULL_KEY_ERRORS),
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/cards',
    operationId: 'createCard',
    tags: ['Cards'],
    summary: 'Salva um cartão a partir do tok_… dos campos de cartão',
    description:
      'O dono: customer (nome e CPF/CNPJ; um cliente com o mesmo documento neste modo é reaproveitado) ou customer_id. ' +
      'O token vale 24 horas e uma só vez. Sem Idempotency-Key: repetir o pedido com o mesmo token nunca salva um segundo cartão ' +
      '(responde que o token já foi usado; o cartão salvo aparece em GET /v1/cards?customer_id=…). ' +
      'O código de segurança fica guardado até a primeira aprovação ou por 1 hora (cvc_available_until). Chaves restritas podem salvar.',
    security: BEARER,
    request: { body: { required: true, content: { 'application/json': { schema: SaveCardSchema } } } },
    responses: {
      201: json(CardSchema, 'O cartão salvo.'),
      ...errorResponses('invalid_json', 'parameter_missing', 'parameter_invalid', 'metadata_invalid', 'not_found', 'card_expired', 'account_not_enabled', ...AUTH_ERRORS),
    },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/cards',
    operationId: 'listCards',
    tags: ['Cards'],
    summary: 'Lista cartões salvos (mais novos primeiro)',
    description: 'Só chaves completas: uma chave restrita salva cartões e lê, pelo id, os que salvou, mas não lista.',
    security: BEARER,
    request: { query: ListCardsQuerySchema },
    responses: { 200: json(CardListSchema, 'Uma página de cartões.'), ...errorResponses('parameter_invalid', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/cards/{id}',
    operationId: 'getCard',
    tags: ['Cards'],
    summary: 'Um cartão salvo',
    security: BEARER,
    request: { params: CardIdParamsSchema },
    responses: { 200: json(CardSchema, 'O cartão.'), ...errorResponses('not_found', ...AUTH_ERRORS) },
  });

  registry.registerPath({
    method: 'delete',
    path: '/v1/cards/{id}',
    operationId: 'deleteCard',
    tags: ['Cards'],
    summary: 'Apaga um cartão salvo, também do cofre',
    description: `Número e código de segurança deixam de existir; cobrar o cartão depois responde invalid_card. ${FULL_KEY_ONLY}`,
    security: BEARER,
    request: { params: CardIdParamsSchema },
    responses: { 200: json(DeletedCardSchema, 'O cartão apagado.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/cards/fields.js',
    operationId: 'getCardFieldsScript',
    tags: ['Cards'],
    summary: 'O script dos campos de cartão (sem chave)',
    description:
      'Para a página da loja: carregue `…/v1/cards/fields.js` num elemento script, depois ' +
      'const fields = Orquestra.cardFields({ publishableKey, container: "#cartao" }) e const card = await fields.tokenize() ' +
      '({ token, brand, last4, exp_month, exp_year }; em erro, rejeita com error.errors = [{ field, message }] em português).',
    security: PUBLIC,
    responses: { 200: { description: 'JavaScript sem dependências.', content: { 'application/javascript': { schema: z.string() } } } },
  });

  registry.registerPath({
    method: 'get',
    path: '/cards/frame',
    operationId: 'getCardFieldsFrame',
    tags: ['Cards'],
    summary: 'A página do iframe dos campos de cartão (aberta pelo script, sem chave)',
    description:
      'Só abre dentro de uma página de um site autorizado (allowed_origins): o CSP frame-ancestors nomeia esse site, e para outro ' +
      'site a página mostra só a recusa (403).',
    security: PUBLIC,
    request: {
      query: z.object({
        pk: z.string().openapi({ description: 'A publishable_key.' }),
        origin: z.string().openapi({ description: 'O site da página que mostra os campos.' }),
      }),
    },
    responses: {
      200: { description: 'A página dos campos.', content: { 'text/html': { schema: z.string() } } },
      400: { description: 'pk ou origin mal formados.', content: { 'text/html': { schema: z.string() } } },
      403: { description: 'Site não autorizado ou chave desconhecida.', content: { 'text/html': { schema: z.string() } } },
      503: { description: 'Cofre indisponível agora.', content: { 'text/html': { schema: z.string() } } },
    },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/cards/tokenize',
    operationId: 'tokenizeCard',
    tags: ['Cards'],
    summary: 'Chamada do iframe dos campos de cartão: cartão → tok_… (sem chave; não chame direto)',
    description:
      'Aceita só pedidos da própria página dos campos (Origin deste domínio). O cofre confere o cartão (Luhn, bandeira, validade, ' +
      'código de segurança) e se origin pode mostrar os campos desta chave. O tok_… vale 24 horas.',
    security: PUBLIC,
    request: { body: { required: true, content: { 'application/json': { schema: TokenizeCardSchema } } } },
    responses: {
      201: json(TokenizeResultSchema, 'O token.'),
      ...errorResponses('invalid_request', 'invalid_json', 'parameter_missing', 'parameter_invalid', 'card_expired', 'account_not_enabled', 'service_unavailable', 'internal'),
    },
  });
}
