import pino from 'pino';
import { REDACT_PATHS } from './logger';

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
