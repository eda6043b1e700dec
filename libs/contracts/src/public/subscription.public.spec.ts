import { Mode } from '../generated/orquestra/common/v1/common';
import type { Subscription } from '../generated/orquestra/subscriptions/v1/subscriptions';
import { subscriptionObjectSchema } from '../events/event-catalogue';
import { toPublicSubscription } from './subscription.public';

const pending: Subscription = {
  id: 'sub_1',
  mode: Mode.MODE_TEST,
  status: 'pending',
  amount: 1990,
  first_amount: 990,
  frequency: 'monthly',
  start_date: '2026-12-01',
  next_charge_date: '2026-12-01',
  description: 'Plano',
  retry: true,
  provider: 'efi',
  provider_account_id: 'acc_1',
  approval: { qr_code: '000201…', url: 'https://pay.example/r/1' },
  customer: { id: 'cus_1', name: 'Ana', document: '52998224725' },
  metadata: { plan: 'gold' },
  tracking: {},
  payments: [],
  source_key_id: 'key_1',
  created_at: '2026-11-24T20:00:00.000Z',
  updated_at: '2026-11-24T20:00:00.000Z',
};

describe('toPublicSubscription', () => {
  it('is the object events carry (the catalogue schema accepts it), with absent fields as null', () => {
    const object = toPublicSubscription(pending, { withPayments: false });
    expect(subscriptionObjectSchema.safeParse(object).success).toBe(true);
    expect(object).toMatchObject({ mode: 'test', end_date: null, approval: { qr_code: '000201…', qr_code_base64: null, url: 'https://pay.example/r/1' } });
    expect(object).not.toHaveProperty('payments');
    expect(object).not.toHaveProperty('source_key_id');
  });

  it('shows a variable amount as null, no approval once active, and the cycles only when asked', () => {
    const object = toPublicSubscription({ ...pending, status: 'active', amount: undefined, approval: undefined }, { withPayments: true });
    expect(object.amount).toBeNull();
    expect(object.approval).toBeNull();
    expect(object.payments).toEqual([]);
  });
});
