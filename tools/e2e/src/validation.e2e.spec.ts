import { api, pixPayment } from './support/api';

const cases: Array<[string, Record<string, unknown>, number, string, string]> = [
  ['amount below 1', { amount: 0 }, 400, 'amount_too_small', 'amount'],
  ['amount as text', { amount: '10' }, 400, 'parameter_invalid', 'amount'],
  ['amount with decimals', { amount: 10.5 }, 400, 'parameter_invalid', 'amount'],
  ['unknown method', { method: 'bitcoin' }, 400, 'parameter_invalid', 'method'],
  ['missing customer name', { customer: { email: 'a@b.com' } }, 400, 'parameter_missing', 'customer.name'],
  ['missing customer', { customer: undefined }, 400, 'parameter_missing', 'customer'],
  ['too many metadata keys', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }, 400, 'metadata_invalid', 'metadata'],
  ['metadata key too long', { metadata: { ['k'.repeat(41)]: 'v' } }, 400, 'metadata_invalid', `metadata.${'k'.repeat(41)}`],
  ['metadata value too long', { metadata: { note: 'v'.repeat(501) } }, 400, 'metadata_invalid', 'metadata.note'],
  ['metadata value not a string', { metadata: { n: 1 } }, 400, 'metadata_invalid', 'metadata.n'],
  ['tracking value too long', { tracking: { utm_source: 'x'.repeat(501) } }, 400, 'parameter_invalid', 'tracking.utm_source'],
];

describe('bad input gets a clear Portuguese 400 with param, never a 500', () => {
  it.each(cases)('%s', async (_name, override, status, code, param) => {
    const response = await api('POST', '/v1/payments', { body: pixPayment(override) });
    expect(response.status).toBe(status);
    expect(response.body.error.code).toBe(code);
    expect(response.body.error.param).toBe(param);
    expect(response.body.error.type).toBe('invalid_request_error');
    expect(response.body.error.message.length).toBeGreaterThan(10);
    expect(JSON.stringify(response.body)).not.toMatch(/at .*\.(ts|js):\d+/);
  });

  it('rejects malformed JSON', async () => {
    const response = await api('POST', '/v1/payments', { rawBody: '{"amount": 10,' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_json');
  });

  it('answers 404 for unknown routes and ids', async () => {
    const route = await api('GET', '/v1/nothing-here');
    expect(route.status).toBe(404);
    expect(route.body.error.code).toBe('route_not_found');
    const id = await api('GET', '/v1/payments/pay_00000000000000000000000000');
    expect(id.status).toBe(404);
    expect(id.body.error.code).toBe('not_found');
    expect(id.body.error.message).toMatch(/não encontrado/);
  });

  it('serves the OpenAPI 3.1 document generated from the validation schemas', async () => {
    const response = await api('GET', '/v1/openapi.json', { key: null });
    expect(response.status).toBe(200);
    expect(response.body.openapi).toMatch(/^3\.1/);
    expect(Object.keys(response.body.paths)).toEqual(expect.arrayContaining(['/v1/payments', '/v1/payments/{id}', '/v1/events']));
  });
});
