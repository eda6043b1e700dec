import { newWebhookSecret, signingSecrets } from './webhook-secret';

describe('webhook secrets', () => {
  it('are whsec_ + 43 base64url characters, never repeated', () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    expect(newWebhookSecret()).not.toBe(a);
  });

  it('sign with the current one and, until it expires, the previous one (newest first)', () => {
    const now = new Date('2026-01-02T00:00:00Z');
    const old = { id: 'old', created_at: new Date('2026-01-01T00:00:00Z'), expires_at: new Date('2026-01-02T12:00:00Z') };
    const older = { id: 'older', created_at: new Date('2025-12-01T00:00:00Z'), expires_at: new Date('2026-01-01T00:00:00Z') };
    const current = { id: 'current', created_at: new Date('2026-01-01T23:00:00Z'), expires_at: null };
    expect(signingSecrets([older, old, current], now).map((s) => s.id)).toEqual(['current', 'old']);
    expect(signingSecrets([older, old, current], new Date('2026-01-03T00:00:00Z')).map((s) => s.id)).toEqual(['current']);
  });
});
