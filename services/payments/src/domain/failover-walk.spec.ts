import type { ProviderChargeStatus } from '@orquestra/contracts';
import type { ErrorCode } from '@orquestra/platform';
import { earlierFirst, walkCandidates, type ChargeAnswer, type WalkCandidate } from './failover-walk';

type Charge = { id: string };
const A: WalkCandidate = { account_id: 'pa_a', provider: 'efi' };
const B: WalkCandidate = { account_id: 'pa_b', provider: 'woovi' };
const C: WalkCandidate = { account_id: 'pa_c', provider: 'asaas' };

const created = (id: string, state: ProviderChargeStatus = 'pending', failure: [string, string] = ['', '']): ChargeAnswer<Charge> => ({
  kind: 'created', charge: { id }, state, providerPaymentId: id, failureCode: failure[0], failureReason: failure[1],
});
const refused = (code: ErrorCode, extra: { param?: string; deadlineExceeded?: boolean } = {}): ChargeAnswer<Charge> => ({
  kind: 'refused', code, message: `msg ${code}`, deadlineExceeded: extra.deadlineExceeded ?? false, ...(extra.param ? { param: extra.param } : {}),
});

/**
 * Providers as a script: each account answers its queued answers in order (a function answer may
 * throw). Records every try and every orphan, with a clock that moves 10 ms per try.
 */
function fakePorts(script: Record<string, Array<ChargeAnswer<Charge> | (() => never)>>) {
  const tries: string[] = [];
  const orphans: string[] = [];
  let clock = 1_000;
  let ids = 0;
  return {
    tries,
    orphans,
    ports: {
      tryCharge: async (candidate: WalkCandidate) => {
        tries.push(candidate.account_id);
        clock += 10;
        const next = script[candidate.account_id]?.shift();
        if (!next) throw new Error(`unexpected try at ${candidate.account_id}`);
        return typeof next === 'function' ? next() : next;
      },
      recordOrphan: async (candidate: WalkCandidate) => void orphans.push(candidate.account_id),
      newAttemptId: () => `att_${++ids}`,
      now: () => clock,
    },
  };
}

describe('walkCandidates (the failover walk)', () => {
  it('takes the first account that creates the charge, with one succeeded attempt', async () => {
    const { ports, tries } = fakePorts({ pa_a: [created('ch_1')] });
    const result = await walkCandidates([A, B], 'pix', ports);
    expect(result.charged).toEqual({ candidate: A, charge: { id: 'ch_1' }, state: 'pending' });
    expect(result.attempts).toEqual([
      { id: 'att_1', provider_account_id: 'pa_a', provider: 'efi', outcome: 'succeeded', failure_code: '', failure_reason: '', latency_ms: 10, provider_payment_id: 'ch_1', created_at: new Date(1_000) },
    ]);
    expect(tries).toEqual(['pa_a']);
  });

  it.each<ErrorCode>(['provider_unavailable', 'provider_rate_limited', 'provider_error', 'provider_rejected', 'service_unavailable', 'invalid_credentials', 'not_found', 'method_not_available'])(
    'moves to the next account when the provider certainly did not charge (%s)',
    async (code) => {
      const { ports, tries, orphans } = fakePorts({ pa_a: [refused(code)], pa_b: [created('ch_b')] });
      const result = await walkCandidates([A, B], 'card', ports);
      expect(result.charged?.candidate).toBe(B);
      expect(result.attempts.map((a) => [a.provider_account_id, a.outcome, a.failure_code, a.failure_reason])).toEqual([
        ['pa_a', 'failed', code, `msg ${code}`],
        ['pa_b', 'succeeded', '', ''],
      ]);
      expect(tries).toEqual(['pa_a', 'pa_b']);
      expect(orphans).toEqual([]);
    },
  );

  it('ends at a decline: the charge exists, and the buyer’s bank would answer the same elsewhere', async () => {
    const { ports, tries } = fakePorts({ pa_a: [created('ch_1', 'failed', ['insufficient_funds', 'Saldo insuficiente'])] });
    const result = await walkCandidates([A, B], 'card', ports);
    expect(result.charged).toMatchObject({ candidate: A, state: 'failed' });
    expect(result.attempts).toEqual([expect.objectContaining({ outcome: 'declined', failure_code: 'insufficient_funds', failure_reason: 'Saldo insuficiente', provider_payment_id: 'ch_1' })]);
    expect(tries).toEqual(['pa_a']);
  });

  it.each<ErrorCode>(['card_declined', 'internal', 'parameter_missing'])('stops at an answer about the payment, not the account (%s)', async (code) => {
    const { ports, tries } = fakePorts({ pa_a: [refused(code)] });
    const result = await walkCandidates([A, B], 'card', ports);
    expect(result).toEqual({ charged: null, errorCode: 'all_providers_failed', attempts: [expect.objectContaining({ outcome: 'failed', failure_code: code })] });
    expect(tries).toEqual(['pa_a']);
  });

  it('answers a refused field as that field (a card token bound to the account that minted it), trying no other account', async () => {
    const { ports, tries } = fakePorts({ pa_a: [refused('parameter_invalid', { param: 'card.token' })] });
    const result = await walkCandidates([A, B], 'card', ports);
    expect(result).toMatchObject({ charged: null, errorCode: 'all_providers_failed', inputError: { code: 'parameter_invalid', param: 'card.token', message: 'msg parameter_invalid' } });
    expect(result.attempts).toHaveLength(1);
    expect(tries).toEqual(['pa_a']);
  });

  it('stops without naming a field when the refusal names none', async () => {
    const { ports } = fakePorts({ pa_a: [refused('parameter_invalid')] });
    const result = await walkCandidates([A, B], 'card', ports);
    expect(result.charged).toBeNull();
    expect(result).not.toHaveProperty('inputError');
  });

  it('moves on after an uncertain Pix, keeping its possible charge as an orphan to remove', async () => {
    const { ports, tries, orphans } = fakePorts({ pa_a: [refused('provider_timeout')], pa_b: [created('ch_b')] });
    const result = await walkCandidates([A, B], 'pix', ports);
    expect(result.charged?.candidate).toBe(B);
    expect(result.attempts.map((a) => [a.provider_account_id, a.outcome, a.failure_code])).toEqual([
      ['pa_a', 'uncertain', 'provider_timeout'],
      ['pa_b', 'succeeded', ''],
    ]);
    expect(tries).toEqual(['pa_a', 'pa_b']);
    expect(orphans).toEqual(['pa_a']);
  });

  it('answers all_providers_failed when every Pix try was uncertain (nobody saw any QR code)', async () => {
    const { ports, orphans } = fakePorts({ pa_a: [refused('provider_timeout')], pa_b: [refused('service_unavailable', { deadlineExceeded: true })] });
    const result = await walkCandidates([A, B], 'pix', ports);
    expect(result).toMatchObject({ charged: null, errorCode: 'all_providers_failed' });
    expect(result.attempts.map((a) => a.outcome)).toEqual(['uncertain', 'uncertain']);
    expect(orphans).toEqual(['pa_a', 'pa_b']);
  });

  it.each(['card', 'boleto'])('resolves an uncertain %s at its own account, taking the charge that exists', async (method) => {
    const { ports, tries, orphans } = fakePorts({ pa_a: [refused('provider_timeout'), created('ch_a', 'paid')] });
    const result = await walkCandidates([A, B], method, ports);
    expect(result.charged).toEqual({ candidate: A, charge: { id: 'ch_a' }, state: 'paid' });
    expect(result.attempts).toEqual([expect.objectContaining({ outcome: 'succeeded', failure_code: 'resolved_after_timeout', provider_payment_id: 'ch_a', latency_ms: 20 })]);
    expect(tries).toEqual(['pa_a', 'pa_a']);
    expect(orphans).toEqual([]);
  });

  it.each([
    ['still refused', refused('provider_timeout')],
    ['declined on the second ask', created('ch_a', 'failed')],
    ['a broken call', () => {
      throw new Error('socket hang up');
    }],
  ] as const)('stops an unresolved uncertain card (%s): never a second charge elsewhere', async (_, second) => {
    const { ports, tries, orphans } = fakePorts({ pa_a: [refused('provider_timeout'), second] });
    const result = await walkCandidates([A, B], 'card', ports);
    expect(result).toEqual({ charged: null, errorCode: 'provider_timeout', attempts: [expect.objectContaining({ outcome: 'uncertain', failure_code: 'provider_timeout', failure_reason: 'msg provider_timeout' })] });
    expect(tries).toEqual(['pa_a', 'pa_a']);
    expect(orphans).toEqual(['pa_a']);
  });

  it('treats our own expired deadline on the call as uncertain', async () => {
    const { ports, tries } = fakePorts({ pa_a: [refused('service_unavailable', { deadlineExceeded: true }), refused('service_unavailable')] });
    const result = await walkCandidates([A, B], 'card', ports);
    expect(result).toMatchObject({ charged: null, errorCode: 'provider_timeout' });
    expect(tries).toEqual(['pa_a', 'pa_a']);
  });

  it('tries every account in order and reports each attempt when all fail', async () => {
    const { ports, tries } = fakePorts({ pa_a: [refused('provider_unavailable')], pa_b: [refused('provider_error')], pa_c: [refused('provider_rate_limited')] });
    const result = await walkCandidates([A, B, C], 'boleto', ports);
    expect(result).toMatchObject({ charged: null, errorCode: 'all_providers_failed' });
    expect(result.attempts.map((a) => a.id)).toEqual(['att_1', 'att_2', 'att_3']);
    expect(tries).toEqual(['pa_a', 'pa_b', 'pa_c']);
  });

  it('charges nowhere without candidates', async () => {
    const { ports } = fakePorts({});
    expect(await walkCandidates([], 'pix', ports)).toEqual({ charged: null, attempts: [], errorCode: 'all_providers_failed' });
  });
});

describe('a resumed walk (earlierAccount: the account its earlier owner was asking when it stopped)', () => {
  it('asks the earlier owner’s account first, whatever order routing gives now', async () => {
    expect(earlierFirst([B, C, A], 'pa_a')).toEqual([A, B, C]);
    // An account routing no longer offers is left out; none keeps routing's order.
    expect(earlierFirst([B, C], 'pa_a')).toEqual([B, C]);
    expect(earlierFirst([B, A], undefined)).toEqual([B, A]);
    const { ports, tries } = fakePorts({ pa_a: [created('ch_a_first_owner')] });
    // Routing now puts A last (its breaker half-open): the earlier owner's charge at A is found, B is never charged.
    const result = await walkCandidates([B, A], 'card', ports, { earlierAccount: 'pa_a' });
    expect(result.charged?.candidate).toBe(A);
    expect(tries).toEqual(['pa_a']);
  });

  it('takes a refusal at the earlier account for uncertain: a card stops there, never charged at the next account', async () => {
    const { ports, tries, orphans } = fakePorts({ pa_a: [refused('provider_unavailable'), refused('provider_unavailable')], pa_b: [created('ch_b')] });
    const result = await walkCandidates([A, B], 'card', ports, { earlierAccount: 'pa_a' });
    expect(result).toMatchObject({ charged: null, errorCode: 'provider_timeout' });
    expect(tries).toEqual(['pa_a', 'pa_a']);
    expect(orphans).toEqual(['pa_a']);
  });

  it('moves a Pix on from a refusing earlier account, keeping what it may hold there as an orphan to remove', async () => {
    const { ports, tries, orphans } = fakePorts({ pa_a: [refused('provider_error')], pa_b: [created('ch_b')] });
    const result = await walkCandidates([A, B], 'pix', ports, { earlierAccount: 'pa_a' });
    expect(result.charged?.candidate).toBe(B);
    expect(tries).toEqual(['pa_a', 'pa_b']);
    expect(orphans).toEqual(['pa_a']);
  });

  it('charges a card nowhere when the earlier account is no longer a candidate; a Pix moves on', async () => {
    const card = fakePorts({ pa_b: [created('ch_b')] });
    expect(await walkCandidates([B], 'card', card.ports, { earlierAccount: 'pa_a' })).toEqual({ charged: null, attempts: [], errorCode: 'provider_timeout' });
    expect(card.tries).toEqual([]);
    const pix = fakePorts({ pa_b: [created('ch_b')] });
    expect((await walkCandidates([B], 'pix', pix.ports, { earlierAccount: 'pa_a' })).charged?.candidate).toBe(B);
  });

  it('treats the other accounts as a first walk does: a refusal moves on, no orphan', async () => {
    const { ports, tries, orphans } = fakePorts({ pa_c: [refused('provider_unavailable')], pa_a: [refused('provider_unavailable')], pa_b: [created('ch_b')] });
    const result = await walkCandidates([A, B, C], 'pix', ports, { earlierAccount: 'pa_c' });
    expect(result.charged?.candidate).toBe(B);
    expect(tries).toEqual(['pa_c', 'pa_a', 'pa_b']);
    // Only the earlier owner's account may hold its charge.
    expect(orphans).toEqual(['pa_c']);
  });

  it('names each account before asking it, and asks none whose naming failed', async () => {
    const { ports, tries } = fakePorts({ pa_a: [refused('provider_unavailable')], pa_b: [created('ch_b')] });
    // Each naming is seen before its account's try.
    const named: string[] = [];
    const result = await walkCandidates([A, B], 'pix', ports, { beforeTry: async (candidate) => void named.push(`${candidate.account_id} after ${tries.length} tries`) });
    expect(result.charged?.candidate).toBe(B);
    expect(named).toEqual(['pa_a after 0 tries', 'pa_b after 1 tries']);
    const failing = fakePorts({ pa_a: [refused('provider_unavailable')], pa_b: [created('ch_b')] });
    const storeDown = new Error('store out of reach');
    await expect(
      walkCandidates([A, B], 'pix', failing.ports, { beforeTry: async (candidate) => { if (candidate.account_id === 'pa_b') throw storeDown; } }),
    ).rejects.toBe(storeDown);
    expect(failing.tries).toEqual(['pa_a']);
  });
});
