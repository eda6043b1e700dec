import { route, type RoutableAccount } from './eligibility';

const account = (overrides: Partial<RoutableAccount>): RoutableAccount => ({
  id: 'pa_a',
  provider: 'efi',
  mode: 'test',
  enabled: true,
  priority: 10,
  methods: ['pix'],
  requires: [],
  ...overrides,
});
const nothing = { document: false, email: false, phone: false, address: false };

describe('route', () => {
  it('orders eligible accounts by priority (lower first), then id', () => {
    const decision = route(
      [account({ id: 'pa_c', priority: 20 }), account({ id: 'pa_b', priority: 10 }), account({ id: 'pa_a', priority: 10 })],
      { mode: 'test', method: 'pix', customerHas: nothing },
    );
    expect(decision.ok && decision.candidates.map((c) => c.id)).toEqual(['pa_a', 'pa_b', 'pa_c']);
  });

  it('keeps only accounts of the caller mode that are enabled and take the method', () => {
    const decision = route(
      [
        account({ id: 'pa_live', mode: 'live' }),
        account({ id: 'pa_off', enabled: false }),
        account({ id: 'pa_boleto', methods: ['boleto'] }),
        account({ id: 'pa_ok' }),
      ],
      { mode: 'test', method: 'pix', customerHas: nothing },
    );
    expect(decision.ok && decision.candidates.map((c) => c.id)).toEqual(['pa_ok']);
  });

  it('says no account takes the method when none does', () => {
    expect(route([account({ mode: 'live' })], { mode: 'test', method: 'pix', customerHas: nothing })).toEqual({
      ok: false,
      code: 'no_eligible_account',
      param: 'method',
    });
  });

  it('prefers accounts that need no customer data and names the missing datum otherwise', () => {
    const needsDoc = account({ id: 'pa_doc', requires: ['pix:document'], priority: 1 });
    const free = account({ id: 'pa_free', priority: 5 });
    const withFree = route([needsDoc, free], { mode: 'test', method: 'pix', customerHas: nothing });
    expect(withFree.ok && withFree.candidates.map((c) => c.id)).toEqual(['pa_free']);
    expect(route([needsDoc], { mode: 'test', method: 'pix', customerHas: nothing })).toEqual({
      ok: false,
      code: 'missing_document',
      param: 'customer.document',
    });
    const withDoc = route([needsDoc], { mode: 'test', method: 'pix', customerHas: { ...nothing, document: true } });
    expect(withDoc.ok).toBe(true);
  });

  it('honours a forced account and refuses a forced account that cannot take the payment', () => {
    const accounts = [account({ id: 'pa_a' }), account({ id: 'pa_b', priority: 1 })];
    const forced = route(accounts, { mode: 'test', method: 'pix', customerHas: nothing, forcedAccountId: 'pa_a' });
    expect(forced.ok && forced.candidates.map((c) => c.id)).toEqual(['pa_a']);
    expect(route(accounts, { mode: 'test', method: 'pix', customerHas: nothing, forcedAccountId: 'pa_x' })).toMatchObject({
      ok: false,
      param: 'provider_account_id',
    });
  });
});
