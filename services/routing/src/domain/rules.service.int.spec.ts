import { common, type providers } from '@orquestra/contracts';
import { AppError, connectDatabase, ensureIndexes, type RpcClient } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerRoutingRuleModel, registerRuleOrderModel, type RoutingRuleModel, type RuleOrderModel } from '../db/routing-rule.model';
import { RulesService } from './rules.service';

jest.setTimeout(120_000);

describe('RulesService against the real store, without locks', () => {
  let db: Connection;
  let model: RoutingRuleModel;
  let orders: RuleOrderModel;
  let service: RulesService;
  const caller = { merchant_id: 'acct_rules', mode: common.Mode.MODE_TEST, key_id: 'key_full', restricted: false, request_id: 'r' };
  // The one dependency outside the store: the merchant's connected accounts, answered as providers would.
  const providersClient = {
    listAccounts: async () => ({ accounts: [{ id: 'pa_a' }, { id: 'pa_b' }] }),
  } as unknown as RpcClient<typeof providers.ProvidersServiceService>;
  const input = (name: string) => ({
    name,
    conditions: { methods: ['pix'], amount_min: 0, amount_max: 0, metadata: [], customer_has: [] },
    target: { type: 'accounts', accounts: ['pa_a'], weights: [], fallback: true },
  });

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('rules')}routing`, logger: pino({ level: 'silent' }) });
    model = registerRoutingRuleModel(db);
    orders = registerRuleOrderModel(db);
    service = new RulesService(model, orders, providersClient);
    await ensureIndexes(db);
  });
  afterAll(async () => {
    await dropTestDatabase(db);
  });
  beforeEach(async () => {
    await model.deleteMany({});
    await orders.deleteMany({});
  });

  it('keeps the limit of 100 rules when creates race for the last places', async () => {
    for (let i = 0; i < 95; i++) await service.create(caller, input(`r${i}`) as never, 'r');
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => service.create(caller, input(`race${i}`) as never, 'r')));
    const refused = results.filter((r) => r.status === 'rejected');
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(5);
    for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(AppError);
    expect(await model.countDocuments({ merchant_id: caller.merchant_id })).toBe(100);
  });

  it("gives a deleted rule's place back, and counts the rules of a counter written before the limit was counted", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 100; i++) ids.push((await service.create(caller, input(`r${i}`) as never, 'r'))._id);
    await expect(service.create(caller, input('over') as never, 'r')).rejects.toBeInstanceOf(AppError);
    await service.remove(caller, ids[0]!);
    await service.create(caller, input('again') as never, 'r');
    await expect(service.create(caller, input('over') as never, 'r')).rejects.toBeInstanceOf(AppError);

    // A counter from before `rule_count` (only the reorder number): the 100 rules there are count.
    await orders.updateOne({}, { $unset: { rule_count: 1 } });
    const racing = await Promise.allSettled(Array.from({ length: 5 }, (_, i) => service.create(caller, input(`late${i}`) as never, 'r')));
    expect(racing.every((r) => r.status === 'rejected')).toBe(true);
    expect(await model.countDocuments({ merchant_id: caller.merchant_id })).toBe(100);
  });

  it('leaves the order of one of two racing reorders on every rule, never a mix', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) ids.push((await service.create(caller, input(`r${i}`) as never, 'r'))._id);
    const reversed = [...ids].reverse();
    const rotated = [...ids.slice(6), ...ids.slice(0, 6)];
    for (let round = 0; round < 5; round++) {
      await Promise.all([service.reorder(caller, reversed), service.reorder(caller, rotated)]);
      const order = (await service.list(caller)).map((r) => r._id);
      expect([reversed, rotated]).toContainEqual(order);
    }
  });

  it('changes and removes a rule only in its own merchant and mode', async () => {
    const rule = await service.create(caller, input('mine') as never, 'r');
    const other = { ...caller, merchant_id: 'acct_other' };
    await expect(service.update(other, rule._id, input('theirs') as never, 'r')).rejects.toMatchObject({ code: 'not_found' });
    await expect(service.remove(other, rule._id)).rejects.toMatchObject({ code: 'not_found' });
    const updated = await service.update(caller, rule._id, { ...input('renamed'), enabled: false } as never, 'r');
    expect(updated).toMatchObject({ name: 'renamed', enabled: false, priority: rule.priority });
    await service.remove(caller, rule._id);
    await expect(service.get(caller, rule._id)).rejects.toMatchObject({ code: 'not_found' });
  });
});
