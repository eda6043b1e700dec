import { Mode } from '../generated/orquestra/common/v1/common';
import { Card } from '../generated/orquestra/vault/v1/vault';
import { toPublicCard } from './card.public';

describe('toPublicCard', () => {
  it('answers the spec fields: customer by id, cvc_available_until null once gone, no key id', () => {
    const card = Card.fromPartial({
      id: 'card_01',
      mode: Mode.MODE_LIVE,
      brand: 'elo',
      last4: '7013',
      exp_month: 3,
      exp_year: 2031,
      holder_name: 'ANA LIMA',
      fingerprint: 'fp',
      customer_id: 'cus_1',
      cvc_available_until: '',
      metadata: { a: '1' },
      created_at: '2026-11-25T00:00:00.000Z',
      source_key_id: 'key_1',
    });
    const shown = toPublicCard(card);
    expect(shown).toEqual({
      id: 'card_01',
      object: 'card',
      mode: 'live',
      brand: 'elo',
      last4: '7013',
      exp_month: 3,
      exp_year: 2031,
      holder_name: 'ANA LIMA',
      fingerprint: 'fp',
      customer: 'cus_1',
      cvc_available_until: null,
      metadata: { a: '1' },
      created_at: '2026-11-25T00:00:00.000Z',
    });
    expect(toPublicCard({ ...card, cvc_available_until: '2026-11-25T01:00:00.000Z' }).cvc_available_until).toBe('2026-11-25T01:00:00.000Z');
  });
});
