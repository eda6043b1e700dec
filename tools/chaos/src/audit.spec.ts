import { chargeAudit, efiTxid, eventAudit, faultFigures, type RequestRecord, type TryRecord } from './audit';

const attempt = (start: number, end: number, ok: boolean, request = `r${start}`, outcome = ok ? '201' : '502'): TryRecord => ({ start, end, ok, outcome, request });
const request = (start: number, end: number, ok: boolean): RequestRecord => ({ start, end, ok, tries: 1, idempotencyKey: `k${start}` });

describe('faultFigures', () => {
  const faults = [
    { name: 'kill payments-2', at: 1_000, repairedAt: 6_000, until: 11_000 },
    { name: 'kill providers-2', at: 11_000, repairedAt: 16_000, until: 21_000 },
  ];

  it('counts the failed tries of each fault and times the recovery to the last of them', () => {
    const tries = [
      attempt(500, 900, false), // before any fault
      attempt(990, 1_020, false), // in flight at the first fault
      attempt(1_200, 1_900, false),
      attempt(2_000, 2_100, true),
      attempt(10_500, 11_600, false), // failed after the second fault's injection: the second's
    ];
    const requests = [request(990, 2_100, true), request(3_000, 3_100, false), request(9_000, 11_500, false)];
    expect(faultFigures(faults, 0, tries, requests)).toEqual({ name: 'kill payments-2', failedTries: 2, failedTriesStartedAfter: 1, clientErrors: 1, requests: 2, recoveryMs: 900 });
    expect(faultFigures(faults, 1, tries, requests)).toMatchObject({ failedTries: 1, failedTriesStartedAfter: 0, recoveryMs: 600 });
  });

  it('blames every failed repeat of a create on the fault of its first failure, however long the repeats wait', () => {
    // The first try dies with payments-2; its repeats wait behind the dead create's key into the next window.
    const tries = [attempt(900, 1_500, false, 'k1'), attempt(1_700, 16_700, false, 'k1'), attempt(17_000, 17_200, true, 'k1')];
    expect(faultFigures(faults, 0, tries, [])).toMatchObject({ failedTries: 2, recoveryMs: 15_700 });
    expect(faultFigures(faults, 1, tries, [])).toMatchObject({ failedTries: 0, recoveryMs: 0 });
  });

  it('reports no recovery time when nothing failed', () => {
    expect(faultFigures(faults, 0, [attempt(1_100, 1_200, true)], []).recoveryMs).toBe(0);
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
