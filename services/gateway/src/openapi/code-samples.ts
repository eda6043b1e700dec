// Request samples of every operation, as the OpenAPI `x-codeSamples` extension (shown by the API
// reference at /docs): a curl command, and the call of the SDK (`@orquestra/node`, libs/sdk) for
// the operations it wraps. Built from the document itself (path parameters, the request body's
// example, the Idempotency-Key header), so a sample cannot name a field the API does not take.

type Json = Record<string, unknown>;

/** The package merchants install; the samples import it under this name. */
export const SDK_PACKAGE = '@orquestra/node';

/**
 * The SDK method of each operation it wraps, as `resource.method` on an `Orquestra` client. Its
 * arguments follow one convention: the path parameters in order, then the request body (or the
 * query, for lists). The e2e suite (tools/e2e/src/api-reference.e2e.spec.ts) runs every sample
 * against the SDK and checks the request it sends is this operation's method and path.
 */
export const SDK_METHODS: Readonly<Record<string, string>> = {
  createPayment: 'payments.create',
  listPayments: 'payments.list',
  getPayment: 'payments.retrieve',
  cancelPayment: 'payments.cancel',
  refundPayment: 'payments.refund',
  simulatePayment: 'payments.simulate',
  syncPayment: 'payments.sync',
  simulateDispute: 'payments.simulateDispute',
  createSubscription: 'subscriptions.create',
  listSubscriptions: 'subscriptions.list',
  getSubscription: 'subscriptions.retrieve',
  cancelSubscription: 'subscriptions.cancel',
  chargeSubscription: 'subscriptions.charge',
  simulateSubscription: 'subscriptions.simulate',
  listBalances: 'balances.list',
  createPayout: 'payouts.create',
  listPayouts: 'payouts.list',
  getPayout: 'payouts.retrieve',
  syncPayout: 'payouts.sync',
  listPayoutDestinations: 'payoutDestinations.list',
  createSubaccount: 'subaccounts.create',
  listSubaccounts: 'subaccounts.list',
  getSubaccount: 'subaccounts.retrieve',
  updateSubaccount: 'subaccounts.update',
  syncSubaccount: 'subaccounts.sync',
  createSubaccountOnboardingLink: 'subaccounts.onboardingLink',
  getSubaccountBalance: 'subaccounts.balance',
  createSubaccountWithdrawal: 'subaccounts.withdrawals.create',
  listSubaccountWithdrawals: 'subaccounts.withdrawals.list',
  listEvents: 'events.list',
  getEvent: 'events.retrieve',
  listProviders: 'providers.list',
  listProviderAccounts: 'providerAccounts.list',
  connectProviderAccount: 'providerAccounts.create',
  getProviderAccount: 'providerAccounts.retrieve',
  updateProviderAccount: 'providerAccounts.update',
  disableProviderAccount: 'providerAccounts.disable',
  enableProviderAccount: 'providerAccounts.enable',
  listRoutingRules: 'routingRules.list',
  createRoutingRule: 'routingRules.create',
  reorderRoutingRules: 'routingRules.reorder',
  getRoutingRule: 'routingRules.retrieve',
  updateRoutingRule: 'routingRules.update',
  deleteRoutingRule: 'routingRules.delete',
  simulateRouting: 'routing.simulate',
  createWebhookEndpoint: 'webhookEndpoints.create',
  listWebhookEndpoints: 'webhookEndpoints.list',
  getWebhookEndpoint: 'webhookEndpoints.retrieve',
  updateWebhookEndpoint: 'webhookEndpoints.update',
  deleteWebhookEndpoint: 'webhookEndpoints.delete',
  rotateWebhookSecret: 'webhookEndpoints.rotateSecret',
  listWebhookDeliveries: 'webhookEndpoints.listDeliveries',
  getWebhookDelivery: 'webhookDeliveries.retrieve',
  resendWebhookDelivery: 'webhookDeliveries.resend',
  listDisputes: 'disputes.list',
  getDispute: 'disputes.retrieve',
  submitDisputeEvidence: 'disputes.submitEvidence',
  listCustomers: 'customers.list',
  getCustomer: 'customers.retrieve',
  getCardsConfig: 'cardsConfig.retrieve',
  updateCardsConfig: 'cardsConfig.update',
  createCard: 'cards.create',
  listCards: 'cards.list',
  getCard: 'cards.retrieve',
  deleteCard: 'cards.delete',
  listIntegrationKinds: 'integrationKinds.list',
  createIntegration: 'integrations.create',
  listIntegrations: 'integrations.list',
  getIntegration: 'integrations.retrieve',
  updateIntegration: 'integrations.update',
  deleteIntegration: 'integrations.delete',
  listIntegrationDeliveries: 'integrations.listDeliveries',
  testIntegration: 'integrations.test',
  createReconciliationRun: 'reconciliationRuns.create',
  listReconciliationRuns: 'reconciliationRuns.list',
  getReconciliationRun: 'reconciliationRuns.retrieve',
  listReconciliationFindings: 'reconciliationRuns.listFindings',
  downloadReconciliationFindingsCsv: 'reconciliationRuns.findingsCsv',
  getAnalyticsOverview: 'analytics.overview',
  listRequestLogs: 'requestLogs.list',
};

/**
 * Operations without an SDK sample, each with the reason: what a merchant's server does not call
 * (pages, scripts, the card iframe, providers' webhooks, probes) or an alias of a wrapped one.
 */
export const NOT_IN_SDK: Readonly<Record<string, string>> = {
  updateWebhookEndpointPost: 'POST alias of updateWebhookEndpoint (PATCH), which the SDK calls',
  getCardFieldsScript: 'loaded by the browser from a <script> tag',
  getCardFieldsFrame: 'the iframe page the card fields script opens',
  tokenizeCard: 'called by the card fields iframe only',
  getApiReference: 'the reference page, opened in a browser',
  getApiReferenceAsset: 'loaded by the reference page',
  getOpenApiDocument: 'this document',
  getPaymentPage: "the buyer's page, opened in a browser",
  choosePaymentMethod: "the buyer's page form",
  getPaymentPageStatus: "polled by the buyer's page",
  getTrackingScript: "loaded by the shop's site from a <script> tag",
  getPaymentQrCode: 'an image for an <img> tag',
  receiveProviderWebhook: 'called by payment providers, not by merchants',
  receiveProviderWebhookSubPath: 'called by payment providers, not by merchants',
  health: 'a probe of the platform',
  readiness: 'a probe of the platform',
};

/** Per operation: the SDK call's arguments when they differ from the convention. */
const BODY_FIELD_ARGUMENT: Readonly<Record<string, string>> = {
  // routingRules.reorder(ids) takes the list itself, not the { ids } body.
  reorderRoutingRules: 'ids',
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

const asJson = (value: unknown): Json => (value && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});
const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

function resolve(document: Json, schema: Json): Json {
  const ref = schema['$ref'];
  if (typeof ref !== 'string') return schema;
  const name = ref.replace('#/components/schemas/', '');
  return asJson(asJson(asJson(document['components'])['schemas'])[name]);
}

/** An example of a schema: its own, its constant or first enum value, else one built from its properties' examples. */
export function exampleOf(document: Json, schema: Json, depth = 0): unknown {
  const resolved = resolve(document, schema);
  if (resolved['example'] !== undefined) return resolved['example'];
  if (resolved['const'] !== undefined) return resolved['const'];
  if (Array.isArray(resolved['enum']) && resolved['enum'].length > 0) return resolved['enum'][0];
  if (depth > 4) return undefined;
  const properties = asJson(resolved['properties']);
  if (Object.keys(properties).length === 0) {
    const variant = asArray(resolved['anyOf'] ?? resolved['oneOf'] ?? resolved['allOf'])[0];
    return variant ? exampleOf(document, variant, depth + 1) : undefined;
  }
  const required = new Set(asArray(resolved['required']) as unknown as string[]);
  const example: Json = {};
  for (const [name, property] of Object.entries(properties)) {
    const value = exampleOf(document, asJson(property), depth + 1);
    if (value !== undefined) example[name] = value;
    else if (required.has(name)) return undefined;
  }
  return Object.keys(example).length > 0 ? example : undefined;
}

interface OperationFacts {
  method: string;
  path: string;
  op: Json;
}

const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

function parameterExample(parameter: Json): string {
  const schema = asJson(parameter['schema']);
  const value = parameter['example'] ?? schema['example'];
  return typeof value === 'string' ? value : `<${String(parameter['name'])}>`;
}

function concretePath(facts: OperationFacts): string {
  let path = facts.path;
  for (const parameter of asArray(facts.op['parameters']).filter((p) => p['in'] === 'path')) {
    path = path.replace(`{${String(parameter['name'])}}`, encodeURIComponent(parameterExample(parameter)));
  }
  return path;
}

const hasQuery = (op: Json, name: string): boolean => asArray(op['parameters']).some((p) => p['in'] === 'query' && p['name'] === name);

function requestBody(document: Json, op: Json): { type: string; example: unknown } | undefined {
  const content = asJson(asJson(op['requestBody'])['content']);
  const [type, media] = Object.entries(content)[0] ?? [];
  if (!type) return undefined;
  const examples = Object.values(asJson(asJson(media)['examples']));
  const example = asJson(media)['example'] ?? asJson(examples[0])['value'] ?? exampleOf(document, asJson(asJson(media)['schema']));
  return { type, example };
}

function curlSample(document: Json, facts: OperationFacts, serverUrl: string): string {
  const { op } = facts;
  const query = facts.method === 'get' && hasQuery(op, 'limit') ? '?limit=10' : '';
  const lines = [`curl${facts.method === 'get' ? '' : ` -X ${facts.method.toUpperCase()}`} ${shellQuote(`${serverUrl}${concretePath(facts)}${query}`)}`];
  const isPublic = Array.isArray(op['security']) && op['security'].length === 0;
  if (!isPublic) lines.push(`-H "Authorization: Bearer $ORQUESTRA_TEST_KEY"`);
  const idempotency = asArray(op['parameters']).find((p) => p['in'] === 'header' && p['name'] === 'Idempotency-Key');
  if (idempotency) lines.push(`-H ${shellQuote(`Idempotency-Key: ${parameterExample(idempotency)}`)}`);
  const body = requestBody(document, op);
  if (body?.type === 'application/json') {
    lines.push(`-H 'Content-Type: application/json'`, `-d ${shellQuote(JSON.stringify(body.example ?? {}, null, 2))}`);
  } else if (body?.type === 'application/x-www-form-urlencoded') {
    const form = new URLSearchParams(Object.entries(asJson(body.example)).map(([k, v]): [string, string] => [k, String(v)]));
    lines.push(`--data ${shellQuote(form.toString())}`);
  } else if (body) {
    lines.push(`-H ${shellQuote(`Content-Type: application/json`)}`, `--data-binary @notificacao.json`);
  }
  return lines.join(' \\\n  ');
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const jsString = (text: string): string => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n')}'`;

/** A JavaScript literal of a JSON value (unquoted keys, single-quoted strings), indented by `indent`. */
export function literal(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (typeof value === 'string') return jsString(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const items = value.map((item) => literal(item, inner));
    const flat = `[${items.join(', ')}]`;
    return flat.length <= 60 && !flat.includes('\n') ? flat : `[\n${items.map((item) => `${inner}${item}`).join(',\n')},\n${indent}]`;
  }
  if (value && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const lines = entries.map(([key, item]) => `${inner}${IDENTIFIER.test(key) ? key : jsString(key)}: ${literal(item, inner)},`);
    return `{\n${lines.join('\n')}\n${indent}}`;
  }
  return JSON.stringify(value ?? null);
}

function resultName(document: Json, op: Json, method: string): string {
  if (method.startsWith('list')) return 'page';
  const ok = Object.entries(asJson(op['responses'])).find(([status]) => status.startsWith('2'));
  const schema = asJson(asJson(asJson(asJson(asJson(ok?.[1])['content'])['application/json'])['schema']));
  const ref = typeof schema['$ref'] === 'string' ? schema['$ref'].split('/').pop() ?? '' : '';
  const name = ref.replace(/(Detail|WithSecret|Response|Result)$/, '');
  return name ? name.charAt(0).toLowerCase() + name.slice(1) : 'result';
}

function sdkSample(document: Json, facts: OperationFacts, call: string, serverUrl: string): string {
  const { op } = facts;
  const args = asArray(op['parameters'])
    .filter((p) => p['in'] === 'path')
    .map((p) => `'${parameterExample(p)}'`);
  const body = requestBody(document, op);
  const field = BODY_FIELD_ARGUMENT[String(op['operationId'])];
  if (body?.example !== undefined) args.push(literal(field ? asJson(body.example)[field] : body.example));
  else if (facts.method === 'get' && hasQuery(op, 'limit')) args.push('{ limit: 10 }');
  const method = call.split('.').pop() ?? '';
  const name = resultName(document, op, method);
  return [
    `import { Orquestra } from '${SDK_PACKAGE}';`,
    '',
    `const orquestra = new Orquestra({ apiKey: process.env.ORQUESTRA_TEST_KEY, baseUrl: '${serverUrl}' });`,
    '',
    `const ${name} = await orquestra.${call}(${args.join(', ')});`,
  ].join('\n');
}

function operationsOf(document: Json): OperationFacts[] {
  return Object.entries(asJson(document['paths'])).flatMap(([path, item]) =>
    METHODS.filter((method) => asJson(item)[method]).map((method) => ({ method, path, op: asJson(asJson(item)[method]) })),
  );
}

/**
 * Adds `x-codeSamples` (curl, and the SDK call when it wraps the operation) to every operation of
 * the document, in place.
 */
export function addCodeSamples(document: Json, serverUrl: string): void {
  for (const facts of operationsOf(document)) {
    const operationId = String(facts.op['operationId']);
    const samples: CodeSample[] = [{ lang: 'Shell', label: 'curl', source: curlSample(document, facts, serverUrl) }];
    const call = SDK_METHODS[operationId];
    if (call) samples.push({ lang: 'JavaScript', label: SDK_PACKAGE, source: sdkSample(document, facts, call, serverUrl) });
    facts.op['x-codeSamples'] = samples;
  }
}
