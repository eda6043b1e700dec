import type { StoredConnectedAccount } from './connect';
import { parseDestination, reverseFor, transferAmount } from './destination-charges';
import { StripeApiError } from './stripe-errors';

const account = (transfers: 'inactive' | 'active') => ({ id: 'acct_1', platformId: 'acct_p', capabilities: { transfers } }) as unknown as StoredConnectedAccount;
const of = (transfers: 'inactive' | 'active') => (platformId: string, id: string) => (platformId === 'acct_p' && id === 'acct_1' ? account(transfers) : undefined);
const codeOf = (work: () => unknown) => {
  try {
    work();
  } catch (err) {
    return err instanceof StripeApiError ? err.body.error.code : 'other';
  }
  return undefined;
};

describe('Stripe emulator destination charges', () => {
  it('reads transfer_data of the platform’s active connected account', () => {
    expect(parseDestination({ transfer_data: { destination: 'acct_1', amount: '3000' } }, 10_000, 'acct_p', of('active'))).toEqual({ transferData: { destination: 'acct_1', amount: 3_000 }, applicationFeeAmount: null });
    expect(transferAmount(10_000, { destination: 'acct_1' }, 1_500)).toBe(8_500);
  });

  it('refuses an unknown or another platform’s destination, inactive transfers, and a part above the amount', () => {
    expect(codeOf(() => parseDestination({ transfer_data: { destination: 'acct_9' } }, 10_000, 'acct_p', of('active')))).toBe('resource_missing');
    expect(codeOf(() => parseDestination({ transfer_data: { destination: 'acct_1' } }, 10_000, 'acct_other', of('active')))).toBe('resource_missing');
    expect(codeOf(() => parseDestination({ transfer_data: { destination: 'acct_1' } }, 10_000, 'acct_p', of('inactive')))).toBe('insufficient_capabilities_for_transfer');
    expect(codeOf(() => parseDestination({ transfer_data: { destination: 'acct_1', amount: '10001' } }, 10_000, 'acct_p', of('active')))).toBe('parameter_invalid_string');
    expect(codeOf(() => parseDestination({ application_fee_amount: '100' }, 10_000, 'acct_p', of('active')))).toBe('parameter_invalid_string');
  });

  it('reverses in proportion, exactly the transfer once all is refunded', () => {
    const transfer = { id: 'tr_1', destination: 'acct_1', amount: 333, reversed: 0 };
    expect(reverseFor(transfer, 1_000, 0, 1)).toBe(0);
    expect(reverseFor(transfer, 1_000, 1, 500)).toBe(166);
    expect(reverseFor(transfer, 1_000, 500, 1_000)).toBe(167);
    expect(transfer.reversed).toBe(333);
  });
});
