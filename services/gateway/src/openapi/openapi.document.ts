import { OpenAPIRegistry, OpenApiGeneratorV31 } from '@asteasolutions/zod-to-openapi';
import { ErrorBodySchema } from '../schemas/error.response.schema';
import { QrCodeParamsSchema, WebhookParamsSchema, WebhookSubPathParamsSchema } from '../schemas/path-params.schema';
import { z } from '../schemas/zod-openapi';
import { BEARER, errorResponses, json, PUBLIC } from './openapi.helpers';
import { addCodeSamples } from './code-samples';
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

  const document = new OpenApiGeneratorV31(registry.definitions).generateDocument({
    openapi: '3.1.0',
    info: {
      title: 'Orquestra API',
      version: API_VERSION,
      description: API_DESCRIPTION,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
    },
    servers: [{ url: options.serverUrl, description: 'Este gateway (PUBLIC_BASE_URL).' }],
    security: BEARER,
    tags: TAGS,
  });
  dropRepeatedAnyOf(document);
  addCodeSamples(document as unknown as Record<string, unknown>, options.serverUrl);
  return document;
}

/** What the API is, in the reference's introduction (Markdown). */
const API_DESCRIPTION = [
  'Orquestração de pagamentos (Pix, boleto, cartão) sobre várias contas de provedores.',
  '',
  '- **Valores** em centavos (inteiros), moeda BRL.',
  '- **Autenticação**: todas as rotas `/v1` exigem `Authorization: Bearer <chave>`: `svc_test_…` (modo de teste, com `simulate`) ou `svc_live_…` (modo real). Uma chave restrita cria pagamentos, lê só os que criou e salva cartões; as demais rotas respondem 403 `restricted_key`.',
  '- **Erros** sempre têm o corpo `{"error": {"type", "message", "code", "param"}}`: `message` em português, `param` nomeia o campo com problema (ou `null`). Cada resposta de erro deste documento traz um exemplo por código.',
  '- **Idempotência**: os `POST` de criação aceitam `Idempotency-Key`; repetir a chave com o mesmo corpo devolve a mesma resposta (`Idempotent-Replayed: true`).',
  '- **Listas** vêm mais novas primeiro; a próxima página é pedida com `starting_after=<id do último>` enquanto `has_more` for `true`.',
  '- **SDK**: `@orquestra/node` (`libs/sdk`); cada operação mostra a chamada do SDK e o `curl` equivalentes.',
  '',
  'Este documento é gerado do código do gateway (os mesmos esquemas zod que validam os pedidos) e publicado em `docs/openapi.json`.',
].join('\n');

/** The tags, in the reference's order, each with what its operations are about. */
const TAGS = [
  { name: 'Payments', description: 'Pagamentos Pix, boleto e cartão: criar, consultar, cancelar, reembolsar; `simulate` paga no modo de teste.' },
  { name: 'Subscriptions', description: 'Assinaturas com Pix Automático: a autorização do pagador e a cobrança de cada ciclo.' },
  { name: 'Payouts', description: 'Saldos das contas de provedor e repasses (saques) para a conta cadastrada ou uma chave Pix.' },
  { name: 'Subaccounts', description: 'Subcontas (vendedores) que recebem divisões de pagamentos, com verificação, saldo e saques.' },
  { name: 'Events', description: 'Tudo o que acontece vira um evento; os mesmos objetos chegam por webhook.' },
  { name: 'Providers', description: 'Os provedores aceitos, suas credenciais e capacidades.' },
  { name: 'Provider accounts', description: 'As contas de provedor conectadas, por modo, com prioridade e taxas.' },
  { name: 'Routing', description: 'Regras que escolhem a conta de cada pagamento, e a simulação do roteamento.' },
  { name: 'Webhooks', description: 'Endpoints que recebem os eventos assinados (HMAC-SHA256) e o histórico de entregas.' },
  { name: 'Disputes', description: 'Disputas (MED no Pix, chargeback no cartão) e a resposta com evidências.' },
  { name: 'Customers', description: 'Clientes (um por CPF/CNPJ e modo), montados a partir dos pagamentos.' },
  { name: 'Cards', description: 'Campos de cartão para a página da loja (o cartão nunca passa pelo servidor da loja) e cartões salvos.' },
  { name: 'Integrations', description: 'Envio das vendas aprovadas para ferramentas de anúncios.' },
  { name: 'Reconciliation', description: 'Conciliação: as cobranças de cada provedor comparadas com os pagamentos.' },
  { name: 'Analytics', description: 'Volume, tarifas e aprovação por conta, método e dia.' },
  { name: 'Request logs', description: 'As chamadas recentes à API feitas com as chaves da conta: método, caminho, status e id da requisição (orq logs tail).' },
  { name: 'Public', description: 'Rotas sem chave para o comprador e o site da loja: página de pagamento, QR Pix, script de rastreamento.' },
  { name: 'Provider webhooks', description: 'Notificações dos provedores (uso dos provedores, não dos clientes).' },
  { name: 'Meta', description: 'Este documento, a referência e as sondas de saúde.' },
];

/**
 * zod-to-openapi 7.3.4 writes `{type: "null"}` twice for `z.union([named, z.null()])`
 * (`nullableRef`); a repeated `anyOf` entry means nothing more, so it is dropped (Redocly's
 * no-illogical-composition-keywords rule flags it).
 */
function dropRepeatedAnyOf(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) dropRepeatedAnyOf(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const record = node as Record<string, unknown>;
  if (Array.isArray(record['anyOf'])) {
    const seen = new Set<string>();
    record['anyOf'] = record['anyOf'].filter((entry) => {
      const key = JSON.stringify(entry);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }
  for (const value of Object.values(record)) dropRepeatedAnyOf(value);
}
