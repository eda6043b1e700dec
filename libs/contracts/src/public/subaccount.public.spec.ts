import { Mode } from '../generated/orquestra/common/v1/common';
import type { Subaccount } from '../generated/orquestra/payouts/v1/payouts';
import { toPublicSubaccount } from './subaccount.public';

const SUBACCOUNT: Subaccount = {
  id: 'sub_01jsub',
  mode: Mode.MODE_LIVE,
  status: 'pending',
  status_detail: '',
  provider: 'pagarme',
  provider_account_id: 'pa_01jxyz',
  provider_subaccount_id: '',
  type: 'individual',
  name: 'Loja da Ana',
  document: '52998224725',
  email: '',
  details: { bank_account: '341 ****-5' },
  metadata: { seller: '42' },
  created_at: '2026-12-01T12:00:00.000Z',
  updated_at: '2026-12-01T12:00:01.000Z',
  source_key_id: 'key_full',
};

describe('toPublicSubaccount', () => {
  it('shows empty texts the provider has not given yet as null and never the creating key', () => {
    const shown = toPublicSubaccount(SUBACCOUNT);
    expect(shown).toEqual({
      id: 'sub_01jsub',
      object: 'subaccount',
      mode: 'live',
      status: 'pending',
      status_detail: null,
      provider: 'pagarme',
      provider_account_id: 'pa_01jxyz',
      provider_subaccount_id: null,
      type: 'individual',
      name: 'Loja da Ana',
      document: '52998224725',
      email: null,
      details: { bank_account: '341 ****-5' },
      metadata: { seller: '42' },
      created_at: '2026-12-01T12:00:00.000Z',
      updated_at: '2026-12-01T12:00:01.000Z',
    });
    expect(JSON.stringify(shown)).not.toContain('key_full');
  });

  it('keeps what the provider gave', () => {
    expect(toPublicSubaccount({ ...SUBACCOUNT, status_detail: 'Aguardando análise.', provider_subaccount_id: 're_123', email: 'ana@loja.com.br' })).toMatchObject({
      status_detail: 'Aguardando análise.',
      provider_subaccount_id: 're_123',
      email: 'ana@loja.com.br',
    });
  });
});
