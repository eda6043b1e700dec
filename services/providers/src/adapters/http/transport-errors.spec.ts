import { classifyWireOutcome, wireOutcomeOfFailure, wireOutcomeOfStatus, type RequestPurpose, type WireOutcome } from './transport-errors';

const prepare: RequestPurpose = { operation: 'prepare' };
const read: RequestPurpose = { operation: 'read' };
const write: RequestPurpose = { operation: 'write' };
const pix: RequestPurpose = { operation: 'create', method: 'pix' };
const boleto: RequestPurpose = { operation: 'create', method: 'boleto' };
const card: RequestPurpose = { operation: 'create', method: 'card' };
// A Pix Automático cycle charge: a debit the payer authorised, read like card.
const debit: RequestPurpose = { operation: 'create', method: 'pix_automatico' };

const label = (purpose: RequestPurpose) => (purpose.operation === 'create' ? `create ${purpose.method}` : purpose.operation);

describe('the wire table', () => {
  // One case per row of classifyWireOutcome, for every request it covers.
  const rows: [WireOutcome, RequestPurpose[], string, string][] = [
    ['not_sent', [prepare, read, write, pix, boleto, card, debit], 'not_created', 'provider_unavailable'],
    ['reset_after_send', [prepare, read, pix], 'not_created', 'provider_unavailable'],
    ['reset_after_send', [boleto, card, debit, write], 'ambiguous', 'provider_timeout'],
    ['timeout', [prepare, read], 'not_created', 'provider_timeout'],
    ['timeout', [pix, boleto, card, debit, write], 'ambiguous', 'provider_timeout'],
    ['rate_limited', [prepare, read, write, pix, boleto, card, debit], 'not_created', 'provider_rate_limited'],
    ['unavailable', [prepare, read, pix], 'not_created', 'provider_unavailable'],
    ['server_error', [prepare, read, pix], 'not_created', 'provider_error'],
    ['unavailable', [boleto, card, debit], 'ambiguous', 'provider_timeout'],
    ['server_error', [boleto, card, debit], 'ambiguous', 'provider_timeout'],
    ['unavailable', [write], 'ambiguous', 'provider_error'],
    ['server_error', [write], 'ambiguous', 'provider_error'],
  ];

  it.each(rows.flatMap(([outcome, purposes, kind, code]) => purposes.map((purpose) => [outcome, label(purpose), purpose, kind, code] as const)))(
    '%s on %s → %s',
    (outcome, _label, purpose, kind, code) => {
      expect(classifyWireOutcome(outcome, purpose)).toEqual({ kind, code });
    },
  );

  it('covers every outcome for every request exactly once', () => {
    const purposes = [prepare, read, write, pix, boleto, card, debit];
    for (const outcome of ['not_sent', 'reset_after_send', 'timeout', 'rate_limited', 'unavailable', 'server_error'] as const) {
      for (const purpose of purposes) {
        expect(rows.filter(([o, ps]) => o === outcome && ps.includes(purpose))).toHaveLength(1);
      }
    }
  });
});

describe('what the wire said', () => {
  it.each([
    [429, 'rate_limited'],
    [503, 'unavailable'],
    [500, 'server_error'],
    [502, 'server_error'],
    [504, 'server_error'],
    [400, undefined],
    [404, undefined],
    [409, undefined],
    [200, undefined],
  ])('HTTP %i → %s', (status, outcome) => {
    expect(wireOutcomeOfStatus(status)).toBe(outcome);
  });

  it('a failure before the request was written is not_sent, whatever its code', () => {
    expect(wireOutcomeOfFailure(Object.assign(new Error('x'), { code: 'ECONNREFUSED' }), false)).toBe('not_sent');
    expect(wireOutcomeOfFailure(Object.assign(new Error('x'), { code: 'ECONNRESET' }), false)).toBe('not_sent');
    expect(wireOutcomeOfFailure(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), false)).toBe('not_sent');
  });

  it('after it was written: a timeout code is a timeout, anything else a reset', () => {
    expect(wireOutcomeOfFailure(Object.assign(new Error('x'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), true)).toBe('timeout');
    expect(wireOutcomeOfFailure(Object.assign(new Error('x'), { code: 'UND_ERR_BODY_TIMEOUT' }), true)).toBe('timeout');
    expect(wireOutcomeOfFailure(Object.assign(new Error('x'), { cause: { code: 'ECONNRESET' } }), true)).toBe('reset_after_send');
    expect(wireOutcomeOfFailure(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }), true)).toBe('reset_after_send');
  });
});
