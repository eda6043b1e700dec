import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import {
  DeletedIntegrationSchema,
  IntegrationDeliveryListSchema,
  IntegrationDeliverySchema,
  IntegrationKindListSchema,
  IntegrationListSchema,
  IntegrationSchema,
} from '../schemas/integration.response.schema';
import {
  CreateIntegrationSchema,
  IntegrationIdParamsSchema,
  ListIntegrationDeliveriesQuerySchema,
  UpdateIntegrationSchema,
} from '../schemas/integration.schema';
import { BEARER, errorResponses, FULL_KEY_ERRORS, json } from './openapi.helpers';

const TAG = ['Integrations'];
const BODY_ERRORS = ['invalid_json', 'parameter_missing', 'parameter_invalid'] as const;

const CREDENTIALS_DOC =
  'As credenciais são guardadas cifradas e nunca devolvidas: as respostas trazem só credentials_last4, ' +
  'os 4 últimos caracteres de cada credencial pelo seu nome ({"access_token": "sBA9"}).';

const SENDS_DOC =
  'A ferramenta de atribuição (utmify) recebe o pedido com UTMs, valor, taxa e líquido quando é gerado (Pix ou boleto aguardando), ' +
  'aprovado, recusado, cancelado e estornado, sempre como o mesmo pedido atualizado; exige o e-mail do cliente e recusa vendas com ' +
  'mais de 7 dias (45 para estornos). Meta e TikTok recebem a compra na aprovação, com o id do pagamento como event_id e e-mail e ' +
  'telefone em SHA-256; vendas de teste só vão com o código de teste. O que não cabe aparece como not_sent com o motivo. ' +
  'Se a ferramenta estiver fora, novas tentativas após 1, 5 e 30 minutos, depois 2, 6, 12 e 24 horas; uma recusa 4xx não é repetida.';

/** /v1/integration-kinds and /v1/integrations… (full keys only). */
export function registerIntegrationPaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/v1/integration-kinds',
    operationId: 'listIntegrationKinds',
    tags: TAG,
    summary: 'Lista os tipos de integração, com as credenciais e opções de cada um e o que é enviado',
    description: SENDS_DOC,
    security: BEARER,
    responses: { 200: json(IntegrationKindListSchema, 'Os tipos (uma página só).'), ...errorResponses(...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/integrations',
    operationId: 'createIntegration',
    tags: TAG,
    summary: 'Cria uma integração com uma ferramenta de anúncios',
    description:
      `${CREDENTIALS_DOC} As credenciais e opções exigidas por tipo estão em GET /v1/integration-kinds; uma que falte ou não exista ` +
      'responde 400 com param (por exemplo credentials.access_token).',
    security: BEARER,
    request: { body: { required: true, content: { 'application/json': { schema: CreateIntegrationSchema } } } },
    responses: { 201: json(IntegrationSchema, 'A integração (com Location).'), ...errorResponses(...BODY_ERRORS, ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/integrations',
    operationId: 'listIntegrations',
    tags: TAG,
    summary: 'Lista as integrações (sem credenciais, só os 4 últimos caracteres)',
    security: BEARER,
    responses: { 200: json(IntegrationListSchema, 'Todas as integrações (uma página só).'), ...errorResponses(...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/integrations/{id}',
    operationId: 'getIntegration',
    tags: TAG,
    summary: 'Consulta uma integração',
    description: CREDENTIALS_DOC,
    security: BEARER,
    request: { params: IntegrationIdParamsSchema },
    responses: { 200: json(IntegrationSchema, 'A integração.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'patch',
    path: '/v1/integrations/{id}',
    operationId: 'updateIntegration',
    tags: TAG,
    summary: 'Altera name, enabled, sales, options (mescladas; valor vazio remove) ou credentials (cada uma enviada substitui a anterior)',
    security: BEARER,
    request: { params: IntegrationIdParamsSchema, body: { required: true, content: { 'application/json': { schema: UpdateIntegrationSchema } } } },
    responses: { 200: json(IntegrationSchema, 'A integração alterada.'), ...errorResponses('not_found', ...BODY_ERRORS, ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'delete',
    path: '/v1/integrations/{id}',
    operationId: 'deleteIntegration',
    tags: TAG,
    summary: 'Apaga uma integração e suas credenciais; envios pendentes são descartados',
    security: BEARER,
    request: { params: IntegrationIdParamsSchema },
    responses: { 200: json(DeletedIntegrationSchema, 'A integração como estava, com deleted true.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'get',
    path: '/v1/integrations/{id}/deliveries',
    operationId: 'listIntegrationDeliveries',
    tags: TAG,
    summary: 'Lista os últimos envios da integração, mais recentes primeiro, com a resposta da ferramenta',
    description: 'request resume o que foi enviado sem credenciais nem e-mail ou telefone em claro. ' + SENDS_DOC,
    security: BEARER,
    request: { params: IntegrationIdParamsSchema, query: ListIntegrationDeliveriesQuerySchema },
    responses: { 200: json(IntegrationDeliveryListSchema, 'Uma página de envios.'), ...errorResponses('not_found', 'parameter_invalid', ...FULL_KEY_ERRORS) },
  });

  registry.registerPath({
    method: 'post',
    path: '/v1/integrations/{id}/test',
    operationId: 'testIntegration',
    tags: TAG,
    summary: 'Envia agora a última venda aprovada como teste e devolve o envio com a resposta da ferramenta',
    description:
      'O envio acontece durante a chamada, sem novas tentativas; o resultado (delivered, failed ou not_sent com o motivo) vem na resposta, ' +
      'com test true. Meta e TikTok só recebem envios de teste com o código de teste nas opções. ' +
      'Sem nenhuma venda aprovada ainda (no modo de vendas que a integração recebe): 404 not_found com param id, e a mensagem diz o que fazer.',
    security: BEARER,
    request: { params: IntegrationIdParamsSchema },
    responses: { 200: json(IntegrationDeliverySchema, 'O envio de teste, já feito.'), ...errorResponses('not_found', ...FULL_KEY_ERRORS) },
  });
}
