import { protoAccount } from '../testing/fixtures';
import { toConnectAccountRequest, toProviderAccountJson } from './provider-account.mapper';
import { common } from '@orquestra/contracts';

const CALLER = { merchant_id: 'acct_1', mode: common.Mode.MODE_LIVE, key_id: 'key_1', restricted: false, request_id: 'req_1' };

describe('provider account mapper', () => {
  it.each([
    [0.99, 99],
    [0.29, 29],
    [1.15, 115],
    [2, 200],
    [0, 0],
    [100, 10_000],
  ])('turns percentage %s into %s basis points and back', (percentage, bps) => {
    const request = toConnectAccountRequest(
      { provider: 'efi', credentials: { a: 'b' }, priority: 10, enabled: true, fees: [{ method: 'pix', percentage, fixed: 0 }] },
      CALLER,
    );
    expect(request.fees[0]?.percent_bps).toBe(bps);
    expect(toProviderAccountJson(protoAccount({ fees: [{ method: 'pix', percent_bps: bps, fixed: 0 }] })).fees[0]?.percentage).toBe(percentage);
  });

  it('connects in the key mode and merchant, never from the body', () => {
    expect(toConnectAccountRequest({ provider: 'efi', credentials: { a: 'b' }, priority: 10, enabled: true }, CALLER)).toMatchObject({
      merchant_id: 'acct_1',
      mode: common.Mode.MODE_LIVE,
    });
  });

  it('shows credentials as the last 4 characters given by the providers service, and nothing else about them', () => {
    const json = toProviderAccountJson(protoAccount());
    expect(json.credentials_last4).toEqual({ client_id: 'c123', client_secret: 'x789' });
    expect(Object.keys(json)).not.toContain('credentials');
    expect(json.webhook_url).toBeNull();
  });

  it('groups "<method>:<field>" requirements by method and treats an unset breaker as closed', () => {
    const json = toProviderAccountJson(protoAccount({ requires: ['boleto:document', 'boleto:address', 'pix:email'], breaker_state: '' }));
    expect(json.customer_requires).toEqual({ boleto: ['document', 'address'], pix: ['email'] });
    expect(json.breaker_state).toBe('closed');
  });

  it('fails loudly on a breaker state outside the documented set (a contract break)', () => {
    expect(() => toProviderAccountJson(protoAccount({ breaker_state: 'melted' }))).toThrow(/breaker_state/);
  });
});
