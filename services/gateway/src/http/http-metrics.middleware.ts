import type { ServiceMetrics } from '@orquestra/platform';
import type { RequestHandler } from 'express';
import { Histogram } from 'prom-client';

/**
 * Request rate and latency of the REST edge: one histogram by method, route template (never the
 * raw path, whose ids would explode the series) and status code.
 */
export function httpMetricsMiddleware(metrics: ServiceMetrics): RequestHandler {
  const duration = new Histogram({
    name: 'orquestra_http_server_request_duration_seconds',
    help: 'Duration of REST requests, by method, route template and status code.',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [metrics.registry],
  });
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const template = (req.route as { path?: unknown } | undefined)?.path;
      // Express has already reset req.baseUrl here; the API routers are mounted at /v1.
      const mount = req.originalUrl.startsWith('/v1/') ? '/v1' : '';
      const route = typeof template === 'string' ? `${mount}${template}` : 'unmatched';
      duration.observe({ method: req.method, route, status_code: String(res.statusCode) }, Number(process.hrtime.bigint() - started) / 1e9);
    });
    next();
  };
}
