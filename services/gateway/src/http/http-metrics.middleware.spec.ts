import { ServiceMetrics } from '@orquestra/platform';
import { fakeClients } from '../testing/fake-clients';
import { startApp } from '../testing/http-harness';

describe('REST request metrics', () => {
  it('counts requests by method, route template (never the raw id) and status', async () => {
    const metrics = new ServiceMetrics('gateway');
    const app = await startApp({ clients: fakeClients(), metrics });
    try {
      await app.request('GET', '/healthz');
      await app.request('GET', '/v1/payments/pay_01hzzzzzzzzzzzzzzzzzzzzzzz');
      await app.request('GET', '/nowhere');
      const text = await metrics.registry.metrics();
      expect(text).toContain('orquestra_http_server_request_duration_seconds_count{service="gateway",method="GET",route="/healthz",status_code="200"} 1');
      expect(text).toContain('route="/v1/payments/:id",status_code="401"} 1');
      expect(text).toContain('orquestra_http_server_request_duration_seconds_count{service="gateway",method="GET",route="unmatched",status_code="404"} 1');
      expect(text).not.toContain('pay_01hzzzzzzzzzzzzzzzzzzzzzzz');
    } finally {
      await app.close();
    }
  });
});
