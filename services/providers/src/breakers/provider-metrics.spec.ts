import pino from 'pino';
import { Registry } from 'prom-client';
import { ProviderError } from '../adapters/provider-adapter';
import { BreakerRegistry } from './breaker-registry';
import { ProviderMetrics } from './provider-metrics';

describe('ProviderMetrics', () => {
  const breakers = new BreakerRegistry({ errorThresholdPercentage: 50, volumeThreshold: 2, resetTimeout: 60_000 }, pino({ level: 'silent' }));
  const registry = new Registry();
  const metrics = new ProviderMetrics(registry, breakers);
  breakers.onCallEnd = (provider, accountId, result, seconds) => metrics.observe(provider, accountId, result, seconds);
  afterAll(() => breakers.shutdown());

  it('exposes each breaker state, call latency by result and errors by kind', async () => {
    await breakers.fire('pa_ok', async () => 'fine', 'stripe');
    const failing = () => Promise.reject(new ProviderError('not_created', 'provider_error', '500'));
    for (let i = 0; i < 2; i++) await expect(breakers.fire('pa_bad', failing, 'efi')).rejects.toThrow('500');
    await expect(breakers.fire('pa_bad', async () => 'never', 'efi')).rejects.toMatchObject({ normalizedCode: 'provider_unavailable' });

    const text = await registry.metrics();
    expect(text).toContain('orquestra_provider_breaker_state{provider="efi",account_id="pa_bad",state="open"} 1');
    expect(text).toContain('orquestra_provider_breaker_state{provider="efi",account_id="pa_bad",state="closed"} 0');
    expect(text).toContain('orquestra_provider_breaker_state{provider="stripe",account_id="pa_ok",state="closed"} 1');
    expect(text).toContain('orquestra_provider_request_errors_total{provider="efi",account_id="pa_bad",kind="not_created"} 2');
    expect(text).toContain('orquestra_provider_request_errors_total{provider="efi",account_id="pa_bad",kind="breaker_open"} 1');
    expect(text).toContain('orquestra_provider_request_duration_seconds_count{provider="stripe",account_id="pa_ok",result="ok"} 1');
  });

  it('times each HTTP exchange by operation and outcome, and logs the wire failures', async () => {
    const logged: unknown[] = [];
    const logger = pino({ level: 'warn' }, { write: (line: string) => logged.push(JSON.parse(line)) });
    const own = new Registry();
    const exchanges = new ProviderMetrics(own, breakers, logger);
    exchanges.observeExchange({ provider: 'efi', operation: 'read', httpMethod: 'GET', requestId: 'req_1', status: 200, seconds: 0.01 });
    exchanges.observeExchange({ provider: 'efi', operation: 'create', httpMethod: 'PUT', requestId: 'req_2', outcome: 'timeout', transportCode: 'UND_ERR_HEADERS_TIMEOUT', seconds: 1.5 });
    const text = await own.metrics();
    expect(text).toContain('orquestra_provider_http_request_duration_seconds_count{provider="efi",operation="read",outcome="2xx"} 1');
    expect(text).toContain('orquestra_provider_http_request_duration_seconds_count{provider="efi",operation="create",outcome="timeout"} 1');
    expect(logged).toEqual([expect.objectContaining({ provider_request: expect.objectContaining({ requestId: 'req_2', outcome: 'timeout' }) })]);
  });
});
