import { z } from 'zod';
import { commonSettings, emulatorEnvSchema, jsonArrayEnv, parseEmulatorEnv } from './emulator-env';

const schema = emulatorEnvSchema('ACME', { api: 9000, control: 9001 }, {
  ACME_EMULATOR_ACCOUNTS: jsonArrayEnv(z.object({ key: z.string().min(1) }), 'must be a JSON array of {key}'),
});

describe('emulator environment', () => {
  it('defaults the common variables under the prefix, and reads them back as settings', () => {
    const config = parseEmulatorEnv('acme', schema, {});
    expect(config).toMatchObject({
      ACME_EMULATOR_API_PORT: 9000,
      ACME_EMULATOR_CONTROL_PORT: 9001,
      ACME_EMULATOR_HOST: '0.0.0.0',
      ACME_EMULATOR_WEBHOOK_RETRIES: 3,
      ACME_EMULATOR_WEBHOOK_BACKOFF_MS: 500,
      ACME_EMULATOR_ACCOUNTS: [],
      LOG_LEVEL: 'info',
    });
    expect(Object.isFrozen(config)).toBe(true);
    expect(commonSettings('ACME', config)).toEqual({
      apiPort: 9000,
      controlPort: 9001,
      host: '0.0.0.0',
      webhooks: { retries: 3, baseDelayMs: 500 },
      logLevel: 'info',
    });
  });

  it('parses set values, the state file included', () => {
    const config = parseEmulatorEnv('acme', schema, {
      ACME_EMULATOR_API_PORT: '0',
      ACME_EMULATOR_WEBHOOK_RETRIES: '0',
      ACME_EMULATOR_STATE_FILE: '/tmp/acme.json',
      ACME_EMULATOR_ACCOUNTS: '[{"key":"k1"}]',
    });
    expect(config.ACME_EMULATOR_ACCOUNTS).toEqual([{ key: 'k1' }]);
    expect(commonSettings('ACME', config)).toMatchObject({ apiPort: 0, webhooks: { retries: 0, baseDelayMs: 500 }, stateFile: '/tmp/acme.json' });
  });

  it('names a bad variable and never echoes its value (they hold keys)', () => {
    const bad = () => parseEmulatorEnv('acme', schema, { ACME_EMULATOR_ACCOUNTS: '[{"secret":"sk_live_dont_print"}]', ACME_EMULATOR_API_PORT: '70000' });
    expect(bad).toThrow(/^invalid acme emulator environment: /);
    expect(bad).toThrow(/ACME_EMULATOR_ACCOUNTS: must be a JSON array of \{key\}/);
    expect(bad).toThrow(/ACME_EMULATOR_API_PORT/);
    expect(bad).not.toThrow(/sk_live_dont_print/);
  });
});
