import { common, type providers } from '@orquestra/contracts';
import type { RpcClient } from '@orquestra/platform';
import type { RoutingRuleDoc } from '../db/routing-rule.model';
import { RoutingLookups } from './routing-lookups';
import type { RulesService } from './rules.service';

// The real wiring (providers' signals reaching routing over RabbitMQ) is exercised end to end by
// tools/e2e providers-and-routing: a dry run, then a disabled account seen by the next dry run.
describe('RoutingLookups', () => {
  const alice: common.Caller = { merchant_id: 'acct_alice', mode: common.Mode.MODE_TEST, key_id: '', restricted: false, request_id: '' };
  const bob: common.Caller = { ...alice, merchant_id: 'acct_bob' };
  let listAccountsCalls: string[];
  let ruleReads: string[];
  let live: boolean;
  let lookups: RoutingLookups;

  beforeEach(() => {
    listAccountsCalls = [];
    ruleReads = [];
    live = true;
    const providersClient = {
      listAccounts: async ({ merchant_id }: { merchant_id: string }) => {
        listAccountsCalls.push(merchant_id);
        return { accounts: [{ id: `pa_${merchant_id}_${listAccountsCalls.length}` }] as providers.ProviderAccount[] };
      },
    } as unknown as RpcClient<typeof providers.ProvidersServiceService>;
    const rules = {
      list: async (caller: common.Caller) => {
        ruleReads.push(caller.merchant_id);
        return [{ _id: `rr_${ruleReads.length}` }] as RoutingRuleDoc[];
      },
    } as unknown as RulesService;
    lookups = new RoutingLookups(providersClient, rules, { ttlMs: 60_000, trusted: () => live });
  });

  it('reads a merchant’s accounts and rules once for many routes', async () => {
    for (let i = 0; i < 5; i++) {
      await lookups.accounts(alice, 'req');
      await lookups.routingRules(alice);
    }
    expect(listAccountsCalls).toEqual(['acct_alice']);
    expect(ruleReads).toEqual(['acct_alice']);
    expect(lookups.stats.accounts).toMatchObject({ hits: 4, misses: 1 });
  });

  it('drops one merchant’s accounts on its signal, and every merchant’s on a breaker signal (no merchant)', async () => {
    await lookups.accounts(alice, 'req');
    await lookups.accounts(bob, 'req');
    lookups.accountsChanged({ merchant_id: 'acct_alice', mode: 'test' });
    expect((await lookups.accounts(alice, 'req'))[0]!.id).toBe('pa_acct_alice_3');
    expect((await lookups.accounts(bob, 'req'))[0]!.id).toBe('pa_acct_bob_2');
    lookups.accountsChanged({ merchant_id: '', mode: 'test' });
    await lookups.accounts(alice, 'req');
    await lookups.accounts(bob, 'req');
    expect(listAccountsCalls).toEqual(['acct_alice', 'acct_bob', 'acct_alice', 'acct_alice', 'acct_bob']);
  });

  it('keeps modes apart, and drops rules only of the merchant and mode that changed', async () => {
    const aliceLive = { ...alice, mode: common.Mode.MODE_LIVE };
    await lookups.routingRules(alice);
    await lookups.routingRules(aliceLive);
    lookups.rulesChanged({ merchant_id: 'acct_alice', mode: 'live' });
    await lookups.routingRules(alice);
    await lookups.routingRules(aliceLive);
    expect(ruleReads).toEqual(['acct_alice', 'acct_alice', 'acct_alice']);
    expect(lookups.stats.rules).toMatchObject({ hits: 1, misses: 3 });
  });

  it('reads every time while the signals are down', async () => {
    live = false;
    await lookups.accounts(alice, 'req');
    await lookups.accounts(alice, 'req');
    expect(listAccountsCalls).toHaveLength(2);
  });
});
