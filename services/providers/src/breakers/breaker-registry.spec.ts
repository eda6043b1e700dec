import pino from 'pino';
import { ProviderError } from '../adapters/provider-adapter';
import { BreakerRegistry } from './breaker-registry';

const settings = { errorThresholdPercentage: 50, volumeThreshold: 3, resetTimeout: 200 };
const unavailable = () => Promise.reject(new ProviderError('not_created', 'provider_error', '500'));

describe('BreakerRegistry', () => {
  let registry: BreakerRegistry;
  beforeEach(() => {
    registry = new BreakerRegistry(settings, pino({ level: 'silent' }));
  });
  afterEach(() => registry.shutdown());

  it('opens after repeated provider failures and then fails fast without calling', async () => {
    for (let i = 0; i < 3; i++) await expect(registry.fire('pa_a', unavailable)).rejects.toThrow('500');
    expect(registry.state('pa_a')).toBe('open');
    let called = false;
    await expect(
      registry.fire('pa_a', async () => {
        called = true;
      }),
    ).rejects.toMatchObject({ kind: 'not_created', normalizedCode: 'provider_unavailable' });
    expect(called).toBe(false);
  });

  it("applies another replica's transitions, told as peer changes, and its own as local ones", async () => {
    const changes: string[] = [];
    registry.onStateChange = (accountId, state, origin) => changes.push(`${accountId}:${state}:${origin}`);
    expect(registry.applyPeer('pa_a', 'open')).toBe(true);
    expect(registry.state('pa_a')).toBe('open');
    expect(registry.applyPeer('pa_a', 'open')).toBe(false);
    await expect(registry.fire('pa_a', async () => 'ok')).rejects.toMatchObject({ normalizedCode: 'provider_unavailable' });
    expect(registry.applyPeer('pa_a', 'closed')).toBe(true);
    await expect(registry.fire('pa_a', async () => 'ok')).resolves.toBe('ok');
    for (let i = 0; i < 3; i++) await expect(registry.fire('pa_a', unavailable)).rejects.toThrow();
    expect(changes).toEqual(['pa_a:open:peer', 'pa_a:closed:peer', 'pa_a:open:local']);
  });

  it('keeps breakers per account', async () => {
    for (let i = 0; i < 3; i++) await expect(registry.fire('pa_a', unavailable)).rejects.toThrow();
    expect(registry.state('pa_a')).toBe('open');
    expect(registry.state('pa_b')).toBe('closed');
    await expect(registry.fire('pa_b', async () => 'ok')).resolves.toBe('ok');
  });

  it('does not count rejected requests against the provider', async () => {
    const rejected = () => Promise.reject(new ProviderError('rejected', 'provider_rejected', '400'));
    for (let i = 0; i < 5; i++) await expect(registry.fire('pa_a', rejected)).rejects.toThrow('400');
    expect(registry.state('pa_a')).toBe('closed');
  });

  it('half-opens after the reset timeout and closes on a successful trial', async () => {
    for (let i = 0; i < 3; i++) await expect(registry.fire('pa_a', unavailable)).rejects.toThrow();
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(registry.state('pa_a')).toBe('half_open');
    await expect(registry.fire('pa_a', async () => 'back')).resolves.toBe('back');
    expect(registry.state('pa_a')).toBe('closed');
  });

  it('opens at once after consecutive failures even when the window is mostly successes', async () => {
    const streaky = new BreakerRegistry({ ...settings, volumeThreshold: 1, resetTimeout: 60_000, consecutiveFailures: 3 }, pino({ level: 'silent' }));
    try {
      for (let i = 0; i < 20; i++) await streaky.fire('pa_a', async () => 'ok');
      for (let i = 0; i < 2; i++) await expect(streaky.fire('pa_a', unavailable)).rejects.toThrow('500');
      expect(streaky.state('pa_a')).toBe('closed'); // 2 of 22 failed: far below 50 %
      await expect(streaky.fire('pa_a', unavailable)).rejects.toThrow('500');
      expect(streaky.state('pa_a')).toBe('open');
      // A rejected request (bad data) is not the provider's failure and never counts.
      const rejected = () => Promise.reject(new ProviderError('rejected', 'provider_rejected', '400'));
      for (let i = 0; i < 5; i++) await expect(streaky.fire('pa_b', rejected)).rejects.toThrow('400');
      expect(streaky.state('pa_b')).toBe('closed');
    } finally {
      streaky.shutdown();
    }
  });

  it('asks its owner for a recovery trial when a breaker half-opens', async () => {
    const trials: string[] = [];
    registry.onHalfOpen = (accountId) => trials.push(accountId);
    for (let i = 0; i < 3; i++) await expect(registry.fire('pa_a', unavailable)).rejects.toThrow();
    expect(trials).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 250));
    expect(trials).toEqual(['pa_a']);
  });
});
