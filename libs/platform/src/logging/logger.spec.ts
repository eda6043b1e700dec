import pino from 'pino';
import { baseConfigShape, loadConfig } from '../config/load-config';
import { chooseLogFormat, createLogger, REDACT_PATHS } from './logger';

// pino with the platform's redaction, writing to memory (createLogger writes to stdout).
function logged(object: Record<string, unknown>): string {
  const lines: string[] = [];
  pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, { write: (line: string) => void lines.push(line) }).info(object, 'charge');
  return lines.join('');
}

describe('log redaction of card data', () => {
  it('removes card numbers and security codes under every name the platform and the providers use, up to two levels down', () => {
    const line = logged({
      number: '4242424242424242',
      request: { card_number: '5555555555554444', security_code: '321', cvv: '654' },
      charge: { creditCard: { number: '4000000000000002', ccv: '987' }, vaultCard: { number: '378282246310005', cvc: '1234' } },
      account_id: 'pa_1',
    });
    for (const secret of ['4242424242424242', '5555555555554444', '4000000000000002', '378282246310005', '"321"', '"654"', '"987"', '"1234"']) expect(line).not.toContain(secret);
    // What is not card data stays.
    expect(JSON.parse(line)).toMatchObject({ account_id: 'pa_1', msg: 'charge' });
  });
});

describe('log format', () => {
  it('is pretty in a terminal and JSON when the output is a file or a pipe', () => {
    expect(chooseLogFormat(true)).toBe('pretty');
    expect(chooseLogFormat(true, 'auto')).toBe('pretty');
    expect(chooseLogFormat(false, 'auto')).toBe('json');
    expect(chooseLogFormat(undefined, 'auto')).toBe('json');
  });

  it('follows LOG_FORMAT when it is json or pretty', () => {
    expect(chooseLogFormat(true, 'json')).toBe('json');
    expect(chooseLogFormat(false, 'pretty')).toBe('pretty');
  });

  it('reads LOG_FORMAT from the config, auto by default, and refuses other values', () => {
    const base = { SERVICE_NAME: 'test' };
    expect(loadConfig(baseConfigShape, base).LOG_FORMAT).toBe('auto');
    expect(loadConfig(baseConfigShape, { ...base, LOG_FORMAT: 'json' }).LOG_FORMAT).toBe('json');
    expect(() => loadConfig(baseConfigShape, { ...base, LOG_FORMAT: 'yaml' })).toThrow(/LOG_FORMAT/);
  });

  it('creates a logger for either format', () => {
    expect(createLogger({ service: 'test', level: 'silent', format: 'json' }).level).toBe('silent');
    expect(createLogger({ service: 'test', level: 'silent', format: 'pretty' }).level).toBe('silent');
  });
});
