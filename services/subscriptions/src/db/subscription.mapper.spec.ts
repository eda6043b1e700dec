import { common } from '@orquestra/contracts';
import { toProtoSubscription } from './subscription.mapper';
import type { SubscriptionDoc } from './subscription.model';

const doc: SubscriptionDoc = {
  _id: 'sub_1',
  merchant_id: 'acct_1',
  mode: 'test',
  source_key_id: 'key_1',
  status: 'pending',
  amount: null,
  first_amount: 990,
  frequency: 'monthly',
  start_date: '2026-12-01',
  end_date: null,
  next_charge_date: '2027-01-04',
  next_cycle: 2,
  customer_id: '',
  description: 'Plano',
  retry: true,
  customer: { name: 'Ana', document: '52998224725' },
  metadata: { plan: 'gold' },
  tracking: {},
  provider: 'efi',
  provider_account_id: 'pa_1',
  provider_recurrence_id: 'RR1',
  cycles: 'ours',
  approval: { qr_code: '000201', qr_code_base64: '', url: 'https://pay/r/1' },
  approval_charge_id: 'cob1',
  idempotency_key: '',
  created_at: new Date('2026-11-24T20:00:00.000Z'),
  updated_at: new Date('2026-11-24T20:00:00.000Z'),
  outbox: [],
  outbox_since: null,
};

describe('toProtoSubscription', () => {
  it('leaves absent what is absent (variable amount, no end date, empty approval fields)', () => {
    const message = toProtoSubscription(doc);
    expect(message).toMatchObject({ id: 'sub_1', mode: common.Mode.MODE_TEST, first_amount: 990, approval: { qr_code: '000201', url: 'https://pay/r/1' } });
    expect(message).not.toHaveProperty('amount');
    expect(message).not.toHaveProperty('end_date');
    expect(message.approval).not.toHaveProperty('qr_code_base64');
  });

  it('shows the approval only while pending', () => {
    expect(toProtoSubscription({ ...doc, status: 'active' })).not.toHaveProperty('approval');
  });
});
