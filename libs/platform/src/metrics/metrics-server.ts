import { createServer, type Server } from 'node:http';
import type { Logger } from 'pino';
import type { ServiceMetrics } from './metrics-registry';

/**
 * Serves `GET /metrics` (Prometheus text) on its own plain-HTTP port, for the gRPC services that
 * have no HTTP server of their own. Anything else answers 404.
 */
export async function startMetricsServer(options: { port: number; host?: string; metrics: ServiceMetrics; logger: Logger }): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404).end();
      return;
    }
    options.metrics
      .text()
      .then(({ contentType, body }) => res.writeHead(200, { 'content-type': contentType }).end(body))
      .catch((error: Error) => {
        options.logger.warn({ err: error.message }, 'metrics collection failed');
        res.writeHead(500).end();
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  return server;
}
