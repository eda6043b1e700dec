import { AppError } from '@orquestra/platform';
import { checkIntegrationInput, last4 } from './integration-input';

function failure(run: () => unknown): AppError {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}

describe('checkIntegrationInput', () => {
  it('utmify: token required, platform defaults to Orquestra', () => {
    expect(checkIntegrationInput('utmify', { credentials: { api_token: ' tok-123456 ' } }, { partial: false })).toEqual({
      credentials: { api_token: 'tok-123456' },
      options: { platform: 'Orquestra' },
    });
  });

  it('meta: pixel_id required and digits only; test_event_code optional', () => {
    const ok = checkIntegrationInput('meta', { credentials: { access_token: 'EAAB' }, options: { pixel_id: '123456789', test_event_code: 'TEST123' } }, { partial: false });
    expect(ok.options).toEqual({ pixel_id: '123456789', test_event_code: 'TEST123' });
    const missing = failure(() => checkIntegrationInput('meta', { credentials: { access_token: 'EAAB' } }, { partial: false }));
    expect([missing.code, missing.param]).toEqual(['parameter_missing', 'options.pixel_id']);
    const bad = failure(() => checkIntegrationInput('meta', { credentials: { access_token: 'EAAB' }, options: { pixel_id: 'px-1' } }, { partial: false }));
    expect([bad.code, bad.param]).toEqual(['parameter_invalid', 'options.pixel_id']);
    expect(bad.message).toMatch(/números/);
  });

  it('tiktok: pixel_code and access_token required', () => {
    const missing = failure(() => checkIntegrationInput('tiktok', { options: { pixel_code: 'C4ABC' } }, { partial: false }));
    expect([missing.code, missing.param]).toEqual(['parameter_missing', 'credentials.access_token']);
  });

  it('unknown kind, unknown names, wrong types, too long values', () => {
    expect(failure(() => checkIntegrationInput('google', {}, { partial: false })).param).toBe('kind');
    expect(failure(() => checkIntegrationInput(undefined, {}, { partial: false })).code).toBe('parameter_missing');
    const unknown = failure(() => checkIntegrationInput('utmify', { credentials: { api_token: 'x', secret: 'y' } }, { partial: false }));
    expect([unknown.code, unknown.param]).toEqual(['parameter_invalid', 'credentials.secret']);
    expect(unknown.message).toContain('api_token');
    expect(failure(() => checkIntegrationInput('utmify', { options: { pixel_id: '1' } }, { partial: true })).param).toBe('options.pixel_id');
    expect(failure(() => checkIntegrationInput('utmify', { credentials: { api_token: 5 as unknown as string } }, { partial: false })).param).toBe('credentials.api_token');
    expect(failure(() => checkIntegrationInput('utmify', { credentials: { api_token: 'x'.repeat(257) } }, { partial: false })).param).toBe('credentials.api_token');
    expect(failure(() => checkIntegrationInput('utmify', { credentials: { api_token: 'x' }, options: { platform: 'minha loja' } }, { partial: false })).param).toBe('options.platform');
  });

  it('partial (PATCH): only what is given, nothing required, no defaults', () => {
    expect(checkIntegrationInput('meta', { options: { test_event_code: 'TEST9' } }, { partial: true })).toEqual({ credentials: {}, options: { test_event_code: 'TEST9' } });
    const empty = failure(() => checkIntegrationInput('meta', { options: { pixel_id: '' } }, { partial: true }));
    expect([empty.code, empty.param]).toEqual(['parameter_missing', 'options.pixel_id']);
  });
});

describe('last4', () => {
  it('shows the last 4 characters of a credential, nothing of a very short one', () => {
    expect(last4('EAABsbCS1iHgBAKZ')).toBe('BAKZ');
    expect(last4('short')).toBe('');
  });
});
