import { ERROR_CODES } from '@orquestra/platform';
import type { ZodTypeAny } from 'zod';
import { CreatePaymentSchema } from '../schemas/create-payment.schema';
import { PaymentSchema } from '../schemas/payment.response.schema';
import { ProviderAccountListSchema, ProviderAccountSchema } from '../schemas/provider-account.response.schema';
import { ConnectProviderAccountSchema, UpdateProviderAccountSchema } from '../schemas/provider-account.schema';
import { ProviderListSchema } from '../schemas/provider.response.schema';
import { DeletedRoutingRuleSchema, RoutingRuleListSchema, RoutingRuleSchema } from '../schemas/routing-rule.response.schema';
import {
  ReorderRoutingRulesSchema,
  RoutingRuleInputSchema,
  UpdateRoutingRuleSchema,
} from '../schemas/routing-rule.schema';
import { RoutingSimulationSchema } from '../schemas/routing-simulation.response.schema';
import { SimulateRoutingSchema } from '../schemas/routing-simulation.schema';
import { TRACKING_KEYS } from '../schemas/tracking.schema';
import { API_VERSION, buildOpenApiDocument } from './openapi.document';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const doc = buildOpenApiDocument({ serverUrl: 'https://api.example.com' }) as unknown as Json;
const schemas = doc['components']['schemas'] as Json;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

function operations(): Array<{ path: string; method: string; op: Json }> {
  return Object.entries(doc['paths'] as Json).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ path, method, op: item[method] as Json })),
  );
}

function collectRefs(node: unknown, refs: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((child) => collectRefs(child, refs));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') refs.push(value);
      else collectRefs(value, refs);
    }
  }
  return refs;
}

describe('OpenAPI document', () => {
  it('is an OpenAPI 3.1 document with info, servers, paths and components', () => {
    expect(doc['openapi']).toBe('3.1.0');
    expect(doc['info']).toMatchObject({ title: 'Orquestra API', version: API_VERSION });
    expect(doc['servers']).toEqual([{ url: 'https://api.example.com', description: 'Este gateway (PUBLIC_BASE_URL).' }]);
    expect(doc['info']['license']).toEqual({ name: 'Apache-2.0', identifier: 'Apache-2.0' });
    expect(Object.keys(doc['paths']).length).toBeGreaterThan(0);
    expect(doc['components']['securitySchemes']['bearerAuth']).toMatchObject({ type: 'http', scheme: 'bearer' });
  });

  it('declares every tag its operations use, once each, with a description', () => {
    const declared = (doc['tags'] as Json[]).map((tag) => tag['name']);
    expect(new Set(declared).size).toBe(declared.length);
    expect((doc['tags'] as Json[]).filter((tag) => !tag['description'])).toEqual([]);
    const used = new Set(operations().flatMap(({ op }) => op['tags'] as string[]));
    expect([...used].filter((tag) => !declared.includes(tag))).toEqual([]);
    expect(declared.filter((tag) => !used.has(tag))).toEqual([]);
  });

  it('lists each anyOf alternative once (zod-to-openapi repeats {type: null} for a nullable named schema)', () => {
    const repeated: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const anyOf = (node as Json)['anyOf'];
      if (Array.isArray(anyOf) && new Set(anyOf.map((entry) => JSON.stringify(entry))).size !== anyOf.length) repeated.push(at);
      for (const [key, value] of Object.entries(node as Json)) walk(value, `${at}/${key}`);
    };
    walk(doc, '#');
    expect(repeated).toEqual([]);
    expect(schemas['Payment']['properties']['method']).toEqual({ anyOf: [{ $ref: '#/components/schemas/PaymentMethod' }, { type: 'null' }] });
  });

  it('documents every route the gateway serves', () => {
    const routes = operations().map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort();
    expect(routes).toEqual(
      [
        'POST /v1/payments',
        'GET /v1/payments',
        'GET /v1/payments/{id}',
        'POST /v1/payments/{id}/cancel',
        'POST /v1/payments/{id}/refund',
        'POST /v1/payments/{id}/simulate',
        'POST /v1/payments/{id}/sync',
        'POST /v1/subscriptions',
        'GET /v1/subscriptions',
        'GET /v1/subscriptions/{id}',
        'POST /v1/subscriptions/{id}/cancel',
        'POST /v1/subscriptions/{id}/charge',
        'POST /v1/subscriptions/{id}/simulate',
        'GET /v1/balances',
        'POST /v1/payouts',
        'GET /v1/payouts',
        'GET /v1/payouts/{id}',
        'POST /v1/payouts/{id}/sync',
        'GET /v1/payout-destinations',
        'POST /v1/subaccounts',
        'GET /v1/subaccounts',
        'GET /v1/subaccounts/{id}',
        'PATCH /v1/subaccounts/{id}',
        'POST /v1/subaccounts/{id}/sync',
        'POST /v1/subaccounts/{id}/onboarding-link',
        'GET /v1/subaccounts/{id}/balance',
        'POST /v1/subaccounts/{id}/withdrawals',
        'GET /v1/subaccounts/{id}/withdrawals',
        'GET /v1/events',
        'GET /v1/events/{id}',
        'POST /v1/webhook-endpoints',
        'GET /v1/webhook-endpoints',
        'GET /v1/webhook-endpoints/{id}',
        'PATCH /v1/webhook-endpoints/{id}',
        'POST /v1/webhook-endpoints/{id}',
        'DELETE /v1/webhook-endpoints/{id}',
        'POST /v1/webhook-endpoints/{id}/rotate-secret',
        'GET /v1/webhook-endpoints/{id}/deliveries',
        'GET /v1/webhook-deliveries/{id}',
        'POST /v1/webhook-deliveries/{id}/resend',
        'GET /v1/providers',
        'GET /v1/provider-accounts',
        'POST /v1/provider-accounts',
        'GET /v1/provider-accounts/{id}',
        'POST /v1/provider-accounts/{id}',
        'POST /v1/provider-accounts/{id}/disable',
        'POST /v1/provider-accounts/{id}/enable',
        'GET /v1/routing-rules',
        'POST /v1/routing-rules',
        'POST /v1/routing-rules/reorder',
        'GET /v1/routing-rules/{id}',
        'POST /v1/routing-rules/{id}',
        'DELETE /v1/routing-rules/{id}',
        'POST /v1/routing/simulate',
        'POST /v1/payments/{id}/simulate-dispute',
        'GET /v1/disputes',
        'GET /v1/disputes/{id}',
        'POST /v1/disputes/{id}/evidence',
        'GET /v1/customers',
        'GET /v1/customers/{id}',
        'GET /v1/cards/config',
        'PATCH /v1/cards/config',
        'POST /v1/cards',
        'GET /v1/cards',
        'GET /v1/cards/{id}',
        'DELETE /v1/cards/{id}',
        'GET /v1/cards/fields.js',
        'GET /cards/frame',
        'POST /v1/cards/tokenize',
        'GET /v1/integration-kinds',
        'POST /v1/integrations',
        'GET /v1/integrations',
        'GET /v1/integrations/{id}',
        'PATCH /v1/integrations/{id}',
        'DELETE /v1/integrations/{id}',
        'GET /v1/integrations/{id}/deliveries',
        'POST /v1/integrations/{id}/test',
        'POST /v1/reconciliation-runs',
        'GET /v1/reconciliation-runs',
        'GET /v1/reconciliation-runs/{id}',
        'GET /v1/reconciliation-runs/{id}/findings',
        'GET /v1/reconciliation-runs/{id}/findings.csv',
        'GET /v1/request-logs',
        'GET /v1/analytics/overview',
        'GET /v1/openapi.json',
        'GET /qr/{paymentId}.png',
        'GET /pay/{paymentId}',
        'POST /pay/{paymentId}',
        'GET /pay/{paymentId}/status',
        'GET /v1/tracking.js',
        'POST /webhooks/providers/{accountId}',
        'POST /webhooks/providers/{accountId}/{subPath}',
        'GET /healthz',
        'GET /readyz',
        'GET /docs',
        'GET /docs/assets/{file}',
      ].sort(),
    );
  });

  it('gives every operation a unique operationId, responses, and every path parameter', () => {
    const ids = operations().map(({ op }) => op['operationId']);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, op } of operations()) {
      expect(Object.keys(op['responses']).length).toBeGreaterThan(0);
      const declared = ((op['parameters'] ?? []) as Json[]).filter((p) => p['in'] === 'path').map((p) => p['name']);
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      expect(declared.sort()).toEqual(inPath.sort());
    }
  });

  it('resolves every $ref', () => {
    for (const ref of collectRefs(doc)) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(schemas).toHaveProperty([ref.replace('#/components/schemas/', '')]);
    }
  });

  it('requires the bearer key on /v1 routes and nothing on the public ones', () => {
    for (const { path, op } of operations()) {
      // The card fields' script and its iframe's tokenize call are public (no key; the publishable key is in the body).
      const isPublic = !path.startsWith('/v1/') || ['/v1/openapi.json', '/v1/cards/fields.js', '/v1/cards/tokenize', '/v1/tracking.js'].includes(path);
      expect(op['security']).toEqual(isPublic ? [] : [{ bearerAuth: [] }]);
    }
  });

  it('shows the same limits the validation enforces', () => {
    const create = schemas['CreatePayment'];
    expect(create['required'].sort()).toEqual(['amount', 'customer']);
    expect(create['additionalProperties']).toBe(false);
    expect(create['properties']['amount']).toMatchObject({ type: 'integer', minimum: 1, maximum: 100_000_000_000 });
    expect(create['properties']['description']).toMatchObject({ maxLength: 500 });
    expect(create['properties']['expires_in_minutes']).toMatchObject({ type: 'integer', minimum: 1, maximum: 43_200 });
    expect(create['properties']['splits']).toMatchObject({ maxItems: 20 });
    expect(schemas['PaymentMethod']).toMatchObject({ enum: ['pix', 'card', 'boleto'] });

    expect(schemas['Metadata']).toMatchObject({
      type: 'object',
      maxProperties: 50,
      propertyNames: { maxLength: 40 },
      additionalProperties: { type: 'string', maxLength: 500 },
    });
    expect(Object.keys(schemas['Tracking']['properties'])).toEqual([...TRACKING_KEYS]);
    expect(schemas['Tracking']['additionalProperties']).toBe(false);
    expect(schemas['Tracking']['properties']['utm_source']).toMatchObject({ maxLength: 500 });
    expect(schemas['CustomerInput']['required']).toEqual(['name']);
    expect(schemas['CustomerInput']['properties']['name']).toMatchObject({ minLength: 1, maxLength: 200 });
    expect(schemas['CustomerInput']['properties']['email']).toMatchObject({ format: 'email' });
  });

  it('documents the Idempotency-Key header and the list parameters', () => {
    const create = doc['paths']['/v1/payments']['post'];
    expect(create['parameters']).toContainEqual(
      expect.objectContaining({ name: 'Idempotency-Key', in: 'header', required: false, schema: expect.objectContaining({ maxLength: 255 }) }),
    );
    const list = doc['paths']['/v1/payments']['get']['parameters'] as Json[];
    expect(list.find((p) => p['name'] === 'limit')).toMatchObject({ in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 10 } });
    expect(list.map((p) => p['name']).sort()).toEqual(['limit', 'method', 'provider', 'q', 'starting_after', 'status']);
  });

  it('documents the spec error body with the closed code set, and responses that use it', () => {
    expect(schemas['Error']['properties']['error']['required'].sort()).toEqual(['code', 'message', 'param', 'type']);
    expect(schemas['Error']['properties']['error']['properties']['code']['enum']).toEqual([...ERROR_CODES]);
    const create = doc['paths']['/v1/payments']['post']['responses'];
    expect(Object.keys(create).sort()).toEqual(['201', '400', '401', '403', '409', '422', '500', '502', '503', '504']);
    expect(create['400']['content']['application/json']['schema']).toEqual({ $ref: '#/components/schemas/Error' });
    expect(create['400']['content']['application/json']['examples']['amount_too_small']['value']['error']).toMatchObject({
      code: 'amount_too_small',
      type: 'invalid_request_error',
    });
  });

  it('documents the Payment response with attempts only on retrieve', () => {
    expect(schemas['Payment']['required']).toEqual(expect.arrayContaining(['id', 'object', 'status', 'amount', 'next_action', 'metadata']));
    expect(schemas['Payment']['properties']).not.toHaveProperty('attempts');
    const detail = doc['paths']['/v1/payments/{id}']['get']['responses']['200']['content']['application/json']['schema'];
    expect(detail).toEqual({ $ref: '#/components/schemas/PaymentDetail' });
    expect(JSON.stringify(schemas['PaymentDetail'])).toContain('attempts');
  });

  it('admits null wherever the response schema is nullable', () => {
    const shape = PaymentSchema.shape as Record<string, ZodTypeAny>;
    const nullable = Object.keys(shape).filter((key) => shape[key]?.safeParse(null).success);
    expect(nullable).toEqual(expect.arrayContaining(['method', 'next_action', 'customer', 'provider', 'failure_code']));
    for (const key of nullable) {
      const property = schemas['Payment']['properties'][key] as Json;
      const admitsNull =
        (Array.isArray(property['type']) && property['type'].includes('null')) ||
        ((property['anyOf'] ?? []) as Json[]).some((option) => option['type'] === 'null');
      expect({ key, admitsNull }).toEqual({ key, admitsNull: true });
    }
  });

  it('has request examples that the validation accepts', () => {
    expect(() => CreatePaymentSchema.parse(schemas['CreatePayment']['example'])).not.toThrow();
    const requests: Array<[string, ZodTypeAny]> = [
      ['ConnectProviderAccount', ConnectProviderAccountSchema],
      ['UpdateProviderAccount', UpdateProviderAccountSchema],
      ['RoutingRuleInput', RoutingRuleInputSchema],
      ['UpdateRoutingRule', UpdateRoutingRuleSchema],
      ['ReorderRoutingRules', ReorderRoutingRulesSchema],
      ['SimulateRouting', SimulateRoutingSchema],
    ];
    for (const [name, schema] of requests) {
      expect({ name, valid: schema.safeParse(schemas[name]['example']).success }).toEqual({ name, valid: true });
    }
  });

  it('has response examples that match the response schemas', () => {
    const responses: Array<[string, ZodTypeAny]> = [
      ['ProviderList', ProviderListSchema],
      ['ProviderAccount', ProviderAccountSchema],
      ['ProviderAccountList', ProviderAccountListSchema],
      ['RoutingRule', RoutingRuleSchema],
      ['RoutingRuleList', RoutingRuleListSchema],
      ['DeletedRoutingRule', DeletedRoutingRuleSchema],
      ['RoutingSimulation', RoutingSimulationSchema],
    ];
    for (const [name, schema] of responses) {
      expect({ name, valid: schema.safeParse(schemas[name]['example']).success }).toEqual({ name, valid: true });
    }
  });

  it('shows the limits of the provider-account and routing bodies', () => {
    const connect = schemas['ConnectProviderAccount'];
    expect(connect['required'].sort()).toEqual(['credentials', 'provider']);
    expect(connect['additionalProperties']).toBe(false);
    expect(schemas['FeeInput']['properties']['percentage']).toMatchObject({ minimum: 0, maximum: 100, multipleOf: 0.01 });
    expect(schemas['SimulateRouting']['required'].sort()).toEqual(['amount', 'method']);
    expect(schemas['ReorderRoutingRules']['required']).toEqual(['ids']);
    expect(schemas['ProviderAccount']['properties']).not.toHaveProperty('credentials');
  });
});
