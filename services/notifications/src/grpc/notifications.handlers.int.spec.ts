import { common } from '@orquestra/contracts';
import { AppError, connectDatabase, ensureIndexes, newId } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerEventModel, type EventModel } from '../db/event.model';
import { notificationsHandlers } from './notifications.handlers';

jest.setTimeout(60_000);

describe('ListEvents / GetEvent against the real store', () => {
  let db: Connection;
  let events: EventModel;
  const merchant = 'acct_events';
  const full = { merchant_id: merchant, mode: common.Mode.MODE_TEST, key_id: 'key_full', restricted: false, request_id: 'r' };
  const bot = { ...full, key_id: 'key_bot', restricted: true };
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('events')}notifications`, logger: pino({ level: 'silent' }) });
    events = registerEventModel(db);
    await ensureIndexes(db);
    const rows: Array<[string, string, number, string | null, string, string]> = [
      ['a', 'payment.created', 1_000, 'key_bot', 'pay_1', 'pay_1'],
      ['b', 'payment.succeeded', 2_000, 'key_bot', 'pay_1', 'pay_1'],
      ['c', 'refund.created', 3_000, 'key_bot', 're_1', 'pay_1'],
      ['d', 'payment.created', 4_000, 'key_full', 'pay_2', 'pay_2'],
      ['e', 'payout.paid', 5_000, null, 'po_1', ''],
    ];
    for (const [name, type, created, source, resource, payment] of rows) {
      ids[name] = newId('event');
      await events.create({ _id: ids[name]!, type, created, merchant_id: merchant, mode: 'test', source, resource_id: resource, payment_id: payment, data: { object: { id: resource } }, received_at: new Date() });
    }
    await events.create({ _id: newId('event'), type: 'payment.created', created: 1_500, merchant_id: 'acct_other', mode: 'test', source: null, resource_id: 'pay_9', payment_id: 'pay_9', data: { object: {} }, received_at: new Date() });
  });
  afterAll(async () => {
    await dropTestDatabase(db);
  });

  const handlers = () => notificationsHandlers(events);
  const list = async (request: Partial<Parameters<ReturnType<typeof notificationsHandlers>['listEvents']>[0]>) => {
    const answer = await handlers().listEvents({ caller: full, limit: 100, starting_after: '', type: '', resource_id: '', created_gte: 0, created_lte: 0, payment_id: '', ...request }, {} as never);
    return answer.data.map((e) => e.id);
  };
  const named = (...names: string[]) => names.map((n) => ids[n]);

  it('lists the merchant newest first, with type, prefix, time range and payment filters', async () => {
    expect(await list({})).toEqual(named('e', 'd', 'c', 'b', 'a'));
    expect(await list({ type: 'payment.created' })).toEqual(named('d', 'a'));
    expect(await list({ type: 'payment.*' })).toEqual(named('d', 'b', 'a'));
    expect(await list({ type: '*' })).toHaveLength(5);
    expect(await list({ created_gte: 2_000, created_lte: 4_000 })).toEqual(named('d', 'c', 'b'));
    expect(await list({ payment_id: 'pay_1' })).toEqual(named('c', 'b', 'a'));
    expect(await list({ resource_id: 're_1' })).toEqual(named('c'));
    const page = await handlers().listEvents({ caller: full, limit: 2, starting_after: ids.d!, type: '', resource_id: '', created_gte: 0, created_lte: 0, payment_id: '' }, {} as never);
    expect(page.data.map((e) => e.id)).toEqual(named('c', 'b'));
    expect(page.has_more).toBe(true);
  });

  it('shows a restricted key only the events of what it created', async () => {
    expect(await list({ caller: bot })).toEqual(named('c', 'b', 'a'));
    await expect(handlers().getEvent({ caller: bot, event_id: ids.d! }, {} as never)).rejects.toMatchObject({ code: 'not_found' });
    expect((await handlers().getEvent({ caller: full, event_id: ids.d! }, {} as never)).event?.type).toBe('payment.created');
  });

  it('refuses an unknown type with param type', async () => {
    await expect(list({ type: 'pagamento.pago' })).rejects.toEqual(expect.any(AppError));
    await expect(list({ type: 'internal.*' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'type' });
  });
});
