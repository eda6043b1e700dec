import { Registry } from 'prom-client';
import { attemptOutcome, DeliveryMetrics } from './delivery-metrics';

describe('webhook delivery metrics', () => {
  it.each([
    [200, '', 'delivered'],
    [204, '', 'delivered'],
    [410, 'HTTP 410', 'gone'],
    [429, 'HTTP 429', 'rate_limited'],
    [301, 'redirect 301 not followed', 'redirect'],
    [500, 'HTTP 500', 'http_error'],
    [0, 'timeout after 10000 ms', 'timeout'],
    [0, 'ECONNREFUSED', 'connection_error'],
  ])('sorts status %i (%s) as %s', (status_code, error, outcome) => {
    expect(attemptOutcome({ status_code, error })).toBe(outcome);
  });

  it('counts attempts by outcome and times the first attempt from queuing', async () => {
    const registry = new Registry();
    const metrics = new DeliveryMetrics(registry);
    const queued = new Date(Date.now() - 1_500);
    metrics.attempt({ status_code: 500, latency_ms: 30, error: 'HTTP 500', retry_after_ms: null }, queued, true);
    metrics.attempt({ status_code: 200, latency_ms: 12, error: '', retry_after_ms: null }, queued, false);
    const text = await registry.metrics();
    expect(text).toContain('orquestra_webhook_delivery_attempts_total{outcome="http_error"} 1');
    expect(text).toContain('orquestra_webhook_delivery_attempts_total{outcome="delivered"} 1');
    expect(text).toContain('orquestra_webhook_delivery_duration_seconds_count{outcome="delivered"} 1');
    // Only the first attempt is timed from queuing, and it waited about 1.5 s.
    expect(text).toContain('orquestra_webhook_first_attempt_delay_seconds_count 1');
    expect(text).toContain('orquestra_webhook_first_attempt_delay_seconds_bucket{le="1"} 0');
    expect(text).toContain('orquestra_webhook_first_attempt_delay_seconds_bucket{le="2.5"} 1');
  });
});
