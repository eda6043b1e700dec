import { chargeAudit, efiTxid, eventAudit, faultFigures, type RequestRecord, type TryRecord } from './audit';

const attempt = (start: number, end: number, ok: boolean, outcome = ok ? '201' : '502'): TryRecord => ({ start, end, ok, outcome });
const request = (start: number, end: number, ok: boolean): RequestRecord => ({ start, end, ok, tries: 1, idempotencyKey: `k${start}` });

describe('faultFigures', () => {
  const fault = { name: 'kill payments-2', at: 1_000, repairedAt: 6_000, until: 11_000 };

  it('counts the failed tries of the window and times the recovery to the last of them', () => {
    const tries = [attempt(500, 900, false), attempt(990, 1_020, false), attempt(1_200, 1_900, false), attempt(2_000, 2_100, true), attempt(10_000, 12_100, false)];
    const figures = faultFigures(fault, tries, [request(990, 2_100, true), request(3_000, 3_100, false), request(9_000, 11_500, false)]);
    // The try that ended before the fault, and the one that ended after the next fault's injection
    // (though it started in this window), are another fault's.
    expect(figures).toEqual({ name: 'kill payments-2', failedTries: 2, failedTriesStartedAfter: 1, clientErrors: 1, requests: 2, recoveryMs: 900 });
  });

  it('reports no recovery time when nothing failed', () => {
    expect(faultFigures(fault, [attempt(1_100, 1_200, true)], []).recoveryMs).toBe(0);
  });
});

describe('chargeAudit', () => {
  const accounts = ['acc_a', 'acc_b'];
  const p1 = { id: 'pay_1', provider_payment_id: efiTxid('pay_1', 'acc_b') };
  const p2 = { id: 'pay_2', provider_payment_id: efiTxid('pay_2', 'acc_a') };

  it('passes one payable charge per payment, the one the payment names, a removed try at another account allowed', () => {
    const charges = [
      { txid: efiTxid('pay_1', 'acc_a'), status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
      { txid: efiTxid('pay_1', 'acc_b'), status: 'ATIVA' },
      { txid: efiTxid('pay_2', 'acc_a'), status: 'CONCLUIDA' },
    ];
    expect(chargeAudit([p1, p2], accounts, charges)).toEqual({ payments: 2, doubleCharged: [], missingCharge: [], unknownLive: 0, unknownRemoved: 0 });
  });

  it('finds a payment payable at two accounts, a missing charge, and charges of unknown payments', () => {
    const charges = [
      { txid: efiTxid('pay_1', 'acc_a'), status: 'ATIVA' },
      { txid: efiTxid('pay_1', 'acc_b'), status: 'ATIVA' },
      { txid: 'someone-elses-1', status: 'ATIVA' },
      { txid: 'someone-elses-2', status: 'REMOVIDA_PELO_USUARIO_RECEBEDOR' },
    ];
    expect(chargeAudit([p1, p2], accounts, charges)).toEqual({ payments: 2, doubleCharged: ['pay_1'], missingCharge: ['pay_2'], unknownLive: 1, unknownRemoved: 1 });
  });

  it('derives the txid as the Efí adapter does (sha256 of the attempt key, 32 hex)', () => {
    expect(efiTxid('pay_1', 'acc_a')).toMatch(/^[0-9a-f]{32}$/);
    expect(efiTxid('pay_1', 'acc_a')).not.toBe(efiTxid('pay_1', 'acc_b'));
  });
});

describe('eventAudit', () => {
  it('finds events missing from the log or never delivered, copies, and deliveries of nothing emitted', () => {
    const emitted = new Set(['evt_1', 'evt_2', 'evt_3']);
    const logged = new Set(['evt_1', 'evt_2']);
    const audit = eventAudit(emitted, logged, ['evt_1', 'evt_1', 'evt_1', 'evt_2', 'evt_9']);
    expect(audit).toEqual({ emitted: 3, missingFromLog: ['evt_3'], undelivered: ['evt_3'], duplicated: 1, extraCopies: 2, invented: 1 });
  });
});
