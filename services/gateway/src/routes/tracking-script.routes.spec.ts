import { fakeClients } from '../testing/fake-clients';
import { TEST_SETTINGS } from '../testing/fixtures';
import { startApp } from '../testing/http-harness';

describe('GET /v1/tracking.js (public merchant-site script)', () => {
  it('serves the script without a key, as JavaScript with an hour of public cache, with the platform payment base as a payment host', async () => {
    const app = await startApp({ clients: fakeClients(), settings: { ...TEST_SETTINGS, payBaseUrl: 'https://pay.orquestra.example/' } });
    try {
      const answer = await app.request('GET', '/v1/tracking.js');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('application/javascript; charset=utf-8');
      expect(answer.headers.get('cache-control')).toBe('public, max-age=3600');
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(answer.text).toContain('var targets = ["pay.orquestra.example"]');
      expect(answer.text).toContain('namespace.withUtm = withUtm;');
    } finally {
      await app.close();
    }
  });

  it('locally the payment base is a path of the API host (/pay): only that path is a payment link', async () => {
    const app = await startApp({ clients: fakeClients(), settings: { ...TEST_SETTINGS, publicBaseUrl: 'http://localhost:8080', payBaseUrl: undefined } });
    try {
      expect((await app.request('GET', '/v1/tracking.js')).text).toContain('var targets = ["localhost:8080/pay"]');
    } finally {
      await app.close();
    }
  });
});
