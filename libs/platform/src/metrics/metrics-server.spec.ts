import pino from 'pino';
import { ServiceMetrics } from './metrics-registry';
import { startMetricsServer } from './metrics-server';

describe('metrics server', () => {
  it('serves the Prometheus text of the registry at /metrics and 404 elsewhere', async () => {
    const metrics = new ServiceMetrics('demo');
    metrics.rpcDuration.observe({ method: 'createPayment', code: 'ok' }, 0.02);
    const server = await startMetricsServer({ port: 0, host: '127.0.0.1', metrics, logger: pino({ level: 'silent' }) });
    try {
      const { port } = server.address() as { port: number };
      const response = await fetch(`http://127.0.0.1:${port}/metrics`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await response.text();
      expect(text).toContain('orquestra_grpc_server_handling_seconds_count{service="demo",method="createPayment",code="ok"} 1');
      expect(text).toMatch(/process_cpu_user_seconds_total\{service="demo"\} \d/);
      expect((await fetch(`http://127.0.0.1:${port}/other`)).status).toBe(404);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
