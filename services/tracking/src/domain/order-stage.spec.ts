import { ORDER_STAGES, type OrderStage } from '../tools/ad-tool';
import { canMove, stageForEvent } from './order-stage';

describe('stageForEvent', () => {
  it.each([
    [{ type: 'payment.pending', method: 'pix' as const, status: 'pending' }, 'waiting_payment'],
    [{ type: 'payment.pending', method: 'boleto' as const, status: 'pending' }, 'waiting_payment'],
    [{ type: 'payment.pending', method: 'card' as const, status: 'pending' }, null],
    [{ type: 'payment.pending', method: null, status: 'pending' }, null],
    // A Pix or boleto issued at creation has payment.created only, already pending.
    [{ type: 'payment.created', method: 'pix' as const, status: 'pending' }, 'waiting_payment'],
    [{ type: 'payment.created', method: 'boleto' as const, status: 'pending' }, 'waiting_payment'],
    // Created without a method (the buyer chooses on the page), or paid at once: not waiting.
    [{ type: 'payment.created', method: null, status: 'requires_method' }, null],
    [{ type: 'payment.created', method: 'card' as const, status: 'succeeded' }, null],
    [{ type: 'payment.created', method: 'pix' as const, status: 'failed' }, null],
    [{ type: 'payment.succeeded', method: 'card' as const }, 'paid'],
    [{ type: 'payment.failed' }, 'refused'],
    [{ type: 'payment.canceled' }, 'refused'],
    [{ type: 'payment.refunded' }, 'refunded'],
    [{ type: 'payment.partially_refunded' }, null],
    [{ type: 'dispute.closed', dispute_status: 'lost' }, 'chargedback'],
    [{ type: 'dispute.closed', dispute_status: 'won' }, null],
    [{ type: 'dispute.created' }, null],
  ])('%j → %s', (event, stage) => {
    expect(stageForEvent(event)).toBe(stage);
  });
});

describe('canMove (an order never moves backwards)', () => {
  it('any stage may be the first one sent', () => {
    for (const stage of ORDER_STAGES) expect(canMove(null, stage)).toBe(true);
  });

  const allowed: Array<[OrderStage, OrderStage]> = [
    ['waiting_payment', 'paid'],
    ['waiting_payment', 'refused'],
    ['waiting_payment', 'refunded'],
    ['paid', 'refunded'],
    ['paid', 'chargedback'],
    ['refused', 'refunded'],
  ];
  it('moves only to a higher rank', () => {
    for (const from of ORDER_STAGES) {
      for (const to of ORDER_STAGES) {
        const expected = allowed.some(([f, t]) => f === from && t === to) || (from === 'waiting_payment' && to === 'chargedback') || (from === 'refused' && to === 'chargedback');
        expect([from, to, canMove(from, to)]).toEqual([from, to, expected]);
      }
    }
  });

  it('never: paid → waiting_payment, refunded → paid, paid → refused, refunded → chargedback, same stage again', () => {
    expect(canMove('paid', 'waiting_payment')).toBe(false);
    expect(canMove('refunded', 'paid')).toBe(false);
    expect(canMove('paid', 'refused')).toBe(false);
    expect(canMove('refused', 'paid')).toBe(false);
    expect(canMove('refunded', 'chargedback')).toBe(false);
    expect(canMove('paid', 'paid')).toBe(false);
  });
});
