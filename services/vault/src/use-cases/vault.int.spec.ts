import { common, vault } from '@orquestra/contracts';
import { AppError, connectDatabase, createRpcClient, ensureIndexes, EventBus, GrpcServer, OutboxRelay, SecretBox, type EventEnvelope, type RpcClient } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, eventuallyExpect, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerCardModel, type CardModel } from '../db/card.model';
import { registerCardTokenModel, type CardTokenModel } from '../db/card-token.model';
import { registerCardsConfigModel } from '../db/cards-config.model';
import { vaultHandlers } from '../grpc/vault.handlers';
import { vaultDueWork } from '../jobs/vault-due-work';
import { CardsConfigService } from './cards-config.service';
import { CardsService } from './cards.service';

jest.setTimeout(60_000);

const { Mode } = common;
const KEYS = `k1:${randomBytes(32).toString('base64')}`;
const FINGERPRINT_KEY = randomBytes(32).toString('base64');
const CVC_TTL_MS = 1_500;
const VISA = '4111111111111111';
const ELO = '6362970000457013';
const nextYear = new Date().getUTCFullYear() + 2;

const caller = (merchant: string, extra: Partial<common.Caller> = {}): common.Caller =>
  common.Caller.fromPartial({ merchant_id: merchant, mode: Mode.MODE_TEST, key_id: 'key_full', request_id: 'req_1', ...extra });

/**
 * The vault over real gRPC against the real store and broker: config and origin rules, tokenize,
 * save once under concurrency, list/get/delete scoping, reveal rules and the security code's
 * deletion by due work (with a 1.5 s lifetime instead of an hour).
 */
describe('vault against the real store and broker', () => {
  let db: Connection;
  let bus: EventBus;
  let server: GrpcServer;
  let client: RpcClient<typeof vault.VaultServiceService>;
  let cards: CardModel;
  let tokens: CardTokenModel;
  let stopWork: () => Promise<void>;
  const published: EventEnvelope[] = [];
  const box = SecretBox.fromConfig(KEYS);

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('vault');
    const logger = pino({ level: 'silent' });
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}vault`, logger });
    bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    await bus.consume({ queue: `${prefix}probe`, patterns: ['card.*'] }, async (event) => void published.push(event));
    const configModel = registerCardsConfigModel(db);
    cards = registerCardModel(db);
    tokens = registerCardTokenModel(db);
    await ensureIndexes(db);
    const outbox = new OutboxRelay({ bus, logger });
    await outbox.watch(cards.collection);
    const configs = new CardsConfigService(configModel, { platformOrigins: ['https://pay.orquestra.example'] });
    const service = new CardsService(cards, tokens, configs, box, outbox, { fingerprintKey: FINGERPRINT_KEY, cvcTtlMs: CVC_TTL_MS, tokenTtlMs: 24 * 3_600_000 });
    const due = vaultDueWork(cards, tokens, service, logger, 200);
    due.cardCvc.start();
    due.tokenExpiry.start();
    stopWork = async () => {
      await due.cardCvc.stop();
      await due.tokenExpiry.stop();
    };
    server = new GrpcServer(logger);
    server.addService(vault.VaultServiceService, vaultHandlers(configs, service));
    const port = await server.listen('127.0.0.1:0');
    client = createRpcClient(vault.VaultServiceService, `127.0.0.1:${port}`, { deadlineMs: 10_000 });
  });

  afterAll(async () => {
    await stopWork();
    client.close();
    await server.shutdown(1_000);
    await bus.close();
    await dropTestDatabase(db);
  });

  async function tokenize(merchant: string, overrides: Partial<vault.TokenizeRequest> = {}, mode = Mode.MODE_TEST): Promise<vault.TokenizeResponse> {
    const { config } = await client.getCardsConfig({ caller: caller(merchant, { mode }) });
    return client.tokenize({ publishable_key: config!.publishable_key, origin: 'https://loja.exemplo.com.br', number: VISA, exp_month: 12, exp_year: nextYear, cvc: '123', ...overrides });
  }

  async function save(merchant: string, token: string, overrides: Partial<vault.SaveCardRequest> = {}): Promise<vault.Card> {
    const { card } = await client.saveCard({ caller: caller(merchant), vault_token: token, holder_name: '  Ana   Lima ', customer_id: 'cus_1', metadata: { pedido: '42' }, ...overrides });
    return card!;
  }

  it('config: one publishable key per merchant and mode, made once under concurrent first reads; test on, live off until the owner turns it on', async () => {
    const reads = await Promise.all(Array.from({ length: 5 }, () => client.getCardsConfig({ caller: caller('acct_cfg') })));
    expect(new Set(reads.map((r) => r.config!.publishable_key)).size).toBe(1);
    expect(reads[0]!.config).toMatchObject({ enabled: true, allowed_origins: [], mode: Mode.MODE_TEST });
    expect(reads[0]!.config!.publishable_key).toMatch(/^pk_test_[0-9a-f]{32}$/);
    const live = (await client.getCardsConfig({ caller: caller('acct_cfg', { mode: Mode.MODE_LIVE }) })).config!;
    expect(live.publishable_key).toMatch(/^pk_live_/);
    expect(live.enabled).toBe(false);
    await expect(client.tokenize({ publishable_key: live.publishable_key, origin: '', number: VISA, exp_month: 12, exp_year: nextYear, cvc: '123' })).rejects.toMatchObject({ code: 'account_not_enabled' });
    const turnedOn = await client.setCardsEnabled({ merchant_id: 'acct_cfg', mode: Mode.MODE_LIVE, enabled: true });
    expect(turnedOn.config).toMatchObject({ enabled: true, publishable_key: live.publishable_key });
    expect((await client.tokenize({ publishable_key: live.publishable_key, origin: '', number: VISA, exp_month: 12, exp_year: nextYear, cvc: '123' })).token).toMatch(/^tok_/);
    await expect(client.setCardsEnabled({ merchant_id: 'acct_cfg', mode: Mode.MODE_UNSPECIFIED, enabled: true })).rejects.toMatchObject({ param: 'mode' });
    await expect(client.tokenize({ publishable_key: 'pk_test_nope', origin: '', number: VISA, exp_month: 12, exp_year: nextYear, cvc: '123' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'publishable_key' });
  });

  it('origins: normalized and validated; when set, tokenize only from a listed site, the refusal naming it and PATCH /v1/cards/config', async () => {
    const updated = await client.updateCardsConfig({ caller: caller('acct_origin'), allowed_origins: ['https://Loja.Exemplo.com.br/', 'http://localhost:3000'] });
    expect(updated.config!.allowed_origins).toEqual(['https://loja.exemplo.com.br', 'http://localhost:3000']);
    await expect(client.updateCardsConfig({ caller: caller('acct_origin'), allowed_origins: ['https://loja.com/checkout'] })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'allowed_origins[0]' });
    await expect(client.updateCardsConfig({ caller: caller('acct_origin', { restricted: true }), allowed_origins: [] })).rejects.toMatchObject({ code: 'restricted_key' });
    expect((await tokenize('acct_origin')).token).toMatch(/^tok_/);
    const refused = await tokenize('acct_origin', { origin: 'https://golpe.exemplo.com' }).catch((error: AppError) => error);
    expect(refused).toMatchObject({ code: 'parameter_invalid', param: 'origin' });
    expect((refused as AppError).message).toContain('https://golpe.exemplo.com');
    expect((refused as AppError).message).toContain('PATCH /v1/cards/config');
    await expect(tokenize('acct_origin', { origin: '' })).rejects.toMatchObject({ param: 'origin' });
    // The platform's own payment page (PAY_BASE_URL's origin) shows any merchant's fields.
    expect((await tokenize('acct_origin', { origin: 'https://pay.orquestra.example' })).token).toMatch(/^tok_/);
    await client.updateCardsConfig({ caller: caller('acct_origin'), allowed_origins: [] });
    expect((await tokenize('acct_origin', { origin: 'https://qualquer.com' })).token).toMatch(/^tok_/);
  });

  it('tokenize: checks the card, answers brand/last4/expiry for 24 h and stores number and code sealed only', async () => {
    const answer = await tokenize('acct_tok', { number: ELO });
    expect(answer).toMatchObject({ brand: 'elo', last4: '7013', exp_month: 12, exp_year: nextYear });
    expect(new Date(answer.expires_at).getTime() - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    const raw = JSON.stringify(await tokens.collection.findOne({ _id: answer.token as never }));
    expect(raw).not.toContain(ELO);
    expect(raw).toContain('"key_id":"k1"');
    await expect(tokenize('acct_tok', { number: '4111111111111112' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'number' });
    await expect(tokenize('acct_tok', { exp_year: 2020 })).rejects.toMatchObject({ param: 'exp_year' });
    await expect(tokenize('acct_tok', { cvc: '12' })).rejects.toMatchObject({ param: 'cvc' });
  });

  it('saves a token once: five concurrent saves make one card, the token is used up, card.created carries no card data', async () => {
    const { token } = await tokenize('acct_save');
    const settled = await Promise.allSettled(Array.from({ length: 5 }, () => save('acct_save', token)));
    const saved = settled.filter((r) => r.status === 'fulfilled').map((r) => (r as PromiseFulfilledResult<vault.Card>).value);
    expect(saved).toHaveLength(1);
    for (const r of settled.filter((r) => r.status === 'rejected')) expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'parameter_invalid', param: 'vault_token' });
    expect(await cards.countDocuments({ token_id: token })).toBe(1);
    const card = saved[0]!;
    expect(card).toMatchObject({ brand: 'visa', last4: '1111', holder_name: 'Ana Lima', customer_id: 'cus_1', metadata: { pedido: '42' }, source_key_id: 'key_full' });
    expect(card.id).toMatch(/^card_/);
    expect(new Date(card.cvc_available_until).getTime()).toBeGreaterThan(Date.now());
    const used = await tokens.findById(token).lean().exec();
    expect(used).toMatchObject({ card_id: card.id, number_sealed: null, cvc_sealed: null });
    await expect(save('acct_save', token)).rejects.toMatchObject({ param: 'vault_token', message: expect.stringContaining(card.id) });
    await expect(save('acct_other', (await tokenize('acct_save')).token)).rejects.toMatchObject({ param: 'vault_token' });

    // The outbox relay publishes card.created in the background: wait for it, then make sure no second one follows.
    const createdOf = () => published.filter((e) => e.type === 'card.created' && (e.data.object as { id: string }).id === card.id);
    await eventuallyExpect(() => expect(createdOf()).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    const created = createdOf();
    expect(created).toHaveLength(1);
    expect(created[0]!.data.object).toMatchObject({ object: 'card', last4: '1111', customer: 'cus_1' });
    expect(JSON.stringify(created[0])).not.toContain(VISA);
    expect(JSON.stringify(created[0])).not.toContain('"123"');
  });

  it('a save that died after taking the token (no card written) is finished by a later save; a recent one is not taken over', async () => {
    const { token } = await tokenize('acct_dead');
    await tokens.updateOne({ _id: token }, { $set: { used_at: new Date(Date.now() - 5_000), card_id: 'card_dead1' } });
    await expect(save('acct_dead', token)).rejects.toMatchObject({ param: 'vault_token' });
    await tokens.updateOne({ _id: token }, { $set: { used_at: new Date(Date.now() - 60_000) } });
    const card = await save('acct_dead', token);
    expect(card.id).not.toBe('card_dead1');
    expect((await client.revealCard({ merchant_id: 'acct_dead', mode: Mode.MODE_TEST, card_id: card.id, token: '', payment_id: '' })).card).toMatchObject({ number: VISA, cvc: '123' });
    await expect(save('acct_dead', token)).rejects.toMatchObject({ param: 'vault_token', message: expect.stringContaining(card.id) });
  });

  it('save: required holder_name (≤ 100), customer, ≤ 20 metadata keys; restricted keys allowed; an expired token refused', async () => {
    const { token } = await tokenize('acct_rules');
    await expect(save('acct_rules', token, { holder_name: '   ' })).rejects.toMatchObject({ code: 'parameter_missing', param: 'holder_name' });
    await expect(save('acct_rules', token, { holder_name: 'x'.repeat(101) })).rejects.toMatchObject({ param: 'holder_name' });
    await expect(save('acct_rules', token, { customer_id: '' })).rejects.toMatchObject({ param: 'customer' });
    await expect(save('acct_rules', token, { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, 'v'])) })).rejects.toMatchObject({ code: 'metadata_invalid' });
    const card = (await client.saveCard({ caller: caller('acct_rules', { restricted: true, key_id: 'key_rk' }), vault_token: token, holder_name: 'Ana', customer_id: 'cus_9', metadata: {} })).card!;
    expect(card.source_key_id).toBe('key_rk');
    const late = await tokenize('acct_rules');
    await tokens.updateOne({ _id: late.token }, { $set: { expires_at: new Date(Date.now() - 1000) } });
    await expect(save('acct_rules', late.token)).rejects.toMatchObject({ param: 'vault_token', message: expect.stringContaining('venceu') });
  });

  it('list (customer filter, pages newest first), get and delete scoped by merchant and mode; a deleted card reads not_found and keeps no card data', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await save('acct_list', (await tokenize('acct_list')).token, { customer_id: i === 1 ? 'cus_b' : 'cus_a' })).id);
    const first = await client.listCards({ caller: caller('acct_list'), customer_id: '', limit: 2, starting_after: '' });
    expect(first.data.map((c) => c.id)).toEqual([ids[2], ids[1]]);
    expect(first.has_more).toBe(true);
    const second = await client.listCards({ caller: caller('acct_list'), customer_id: '', limit: 2, starting_after: ids[1]! });
    expect(second).toMatchObject({ data: [{ id: ids[0] }], has_more: false });
    expect((await client.listCards({ caller: caller('acct_list'), customer_id: 'cus_a', limit: 0, starting_after: '' })).data.map((c) => c.id)).toEqual([ids[2], ids[0]]);
    await expect(client.listCards({ caller: caller('acct_list'), customer_id: '', limit: 101, starting_after: '' })).rejects.toMatchObject({ param: 'limit' });
    expect((await client.listCards({ caller: caller('acct_list', { mode: Mode.MODE_LIVE }), customer_id: '', limit: 10, starting_after: '' })).data).toEqual([]);
    await expect(client.getCard({ caller: caller('acct_other'), card_id: ids[0]! })).rejects.toMatchObject({ code: 'not_found', param: 'id' });
    await expect(client.getCard({ caller: caller('acct_list', { mode: Mode.MODE_LIVE }), card_id: ids[0]! })).rejects.toMatchObject({ code: 'not_found' });

    await expect(client.deleteCard({ caller: caller('acct_list', { restricted: true }), card_id: ids[0]! })).rejects.toMatchObject({ code: 'restricted_key' });
    const deleted = (await client.deleteCard({ caller: caller('acct_list'), card_id: ids[0]! })).card!;
    expect(deleted).toMatchObject({ id: ids[0], last4: '1111' });
    await expect(client.getCard({ caller: caller('acct_list'), card_id: ids[0]! })).rejects.toMatchObject({ code: 'not_found', param: 'id' });
    await expect(client.deleteCard({ caller: caller('acct_list'), card_id: ids[0]! })).rejects.toMatchObject({ code: 'not_found' });
    const tombstone = await cards.collection.findOne({ _id: ids[0] as never });
    expect(tombstone).toMatchObject({ number_sealed: null, cvc_sealed: null, last4: '', fingerprint: '', holder_name: '', metadata: {} });
    await expect(client.revealCard({ merchant_id: 'acct_list', mode: Mode.MODE_TEST, card_id: ids[0]!, token: '', payment_id: '' })).rejects.toMatchObject({ code: 'invalid_card' });
    const deletedOf = () => published.filter((e) => e.type === 'card.deleted' && (e.data.object as { id: string }).id === ids[0]);
    await eventuallyExpect(() => expect(deletedOf()).toHaveLength(1));
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(deletedOf()).toHaveLength(1);
  });

  it('a card fields token charges one payment: its retries reveal it again, another payment is refused, and two racing payments get one winner', async () => {
    const { token } = await tokenize('acct_bind', { number: VISA });
    expect((await client.revealCard({ merchant_id: 'acct_bind', mode: Mode.MODE_TEST, card_id: '', token, payment_id: 'pay_a' })).card).toMatchObject({ number: VISA });
    expect((await client.revealCard({ merchant_id: 'acct_bind', mode: Mode.MODE_TEST, card_id: '', token, payment_id: 'pay_a' })).card).toMatchObject({ number: VISA });
    await expect(client.revealCard({ merchant_id: 'acct_bind', mode: Mode.MODE_TEST, card_id: '', token, payment_id: 'pay_b' })).rejects.toMatchObject({ code: 'invalid_card', param: 'card.token' });
    const racing = (await tokenize('acct_bind', { number: VISA })).token;
    const outcomes = await Promise.allSettled(['pay_1', 'pay_2', 'pay_3', 'pay_4'].map((payment_id) => client.revealCard({ merchant_id: 'acct_bind', mode: Mode.MODE_TEST, card_id: '', token: racing, payment_id })));
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
  });

  it('reveal: a saved card or an unsaved token of this merchant and mode; expired → card_expired; unknown → invalid_card; a disabled vault → account_not_enabled', async () => {
    const { token } = await tokenize('acct_reveal', { number: ELO, cvc: '321' });
    const fromToken = (await client.revealCard({ merchant_id: 'acct_reveal', mode: Mode.MODE_TEST, card_id: '', token, payment_id: 'pay_1' })).card!;
    expect(fromToken).toMatchObject({ number: ELO, cvc: '321', brand: 'elo', holder_name: '', card_id: '', exp_month: 12, exp_year: nextYear });
    const card = await save('acct_reveal', token);
    const revealed = (await client.revealCard({ merchant_id: 'acct_reveal', mode: Mode.MODE_TEST, card_id: card.id, token: '', payment_id: '' })).card!;
    expect(revealed).toMatchObject({ number: ELO, cvc: '321', holder_name: 'Ana Lima', card_id: card.id, customer_id: 'cus_1', fingerprint: card.fingerprint });
    // The fingerprint is the merchant's: same number, same fingerprint; another merchant's differs.
    const again = await save('acct_reveal', (await tokenize('acct_reveal', { number: ELO })).token);
    expect(again.fingerprint).toBe(card.fingerprint);
    const elsewhere = await save('acct_reveal2', (await tokenize('acct_reveal2', { number: ELO })).token);
    expect(elsewhere.fingerprint).not.toBe(card.fingerprint);

    await expect(client.revealCard({ merchant_id: 'acct_reveal', mode: Mode.MODE_TEST, card_id: '', token, payment_id: 'pay_1' })).rejects.toMatchObject({ code: 'invalid_card', message: expect.stringContaining(card.id) });
    await expect(client.revealCard({ merchant_id: 'acct_other', mode: Mode.MODE_TEST, card_id: card.id, token: '', payment_id: '' })).rejects.toMatchObject({ code: 'invalid_card' });
    await expect(client.revealCard({ merchant_id: 'acct_reveal', mode: Mode.MODE_LIVE, card_id: card.id, token: '', payment_id: '' })).rejects.toMatchObject({ code: 'account_not_enabled' });
    await expect(client.revealCard({ merchant_id: 'acct_reveal', mode: Mode.MODE_TEST, card_id: card.id, token: 'tok_x', payment_id: 'pay_x' })).rejects.toMatchObject({ param: 'card' });
    await cards.updateOne({ _id: again.id }, { $set: { exp_year: 2020 } });
    await expect(client.revealCard({ merchant_id: 'acct_reveal', mode: Mode.MODE_TEST, card_id: again.id, token: '', payment_id: '' })).rejects.toMatchObject({ code: 'card_expired' });

    await client.setCardsEnabled({ merchant_id: 'acct_reveal', mode: Mode.MODE_TEST, enabled: false });
    await expect(client.revealCard({ merchant_id: 'acct_reveal', mode: Mode.MODE_TEST, card_id: card.id, token: '', payment_id: '' })).rejects.toMatchObject({ code: 'account_not_enabled' });
    await expect(save('acct_reveal', (await tokens.findOne({ merchant_id: 'acct_reveal', used_at: null }).lean().exec())?._id ?? 'tok_x')).rejects.toMatchObject({ code: 'account_not_enabled' });
    await expect(tokenize('acct_reveal')).rejects.toMatchObject({ code: 'account_not_enabled' });
    await client.setCardsEnabled({ merchant_id: 'acct_reveal', mode: Mode.MODE_TEST, enabled: true });
  });

  it('the security code: deleted at once by CardApproved, and by due work when its time is over; the number stays', async () => {
    const approved = await save('acct_cvc', (await tokenize('acct_cvc')).token);
    await client.cardApproved({ merchant_id: 'acct_cvc', mode: Mode.MODE_TEST, card_id: approved.id });
    expect((await client.getCard({ caller: caller('acct_cvc'), card_id: approved.id })).card!.cvc_available_until).toBe('');
    expect((await client.revealCard({ merchant_id: 'acct_cvc', mode: Mode.MODE_TEST, card_id: approved.id, token: '', payment_id: '' })).card).toMatchObject({ number: VISA, cvc: '' });
    await client.cardApproved({ merchant_id: 'acct_cvc', mode: Mode.MODE_TEST, card_id: approved.id });

    const timed = await save('acct_cvc', (await tokenize('acct_cvc')).token);
    expect(timed.cvc_available_until).not.toBe('');
    const until = new Date(timed.cvc_available_until).getTime();
    const deadline = Date.now() + 15_000;
    let stored = await cards.collection.findOne({ _id: timed.id as never });
    while (stored?.['cvc_sealed'] && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      stored = await cards.collection.findOne({ _id: timed.id as never });
    }
    expect(Date.now()).toBeGreaterThanOrEqual(until);
    expect(stored).toMatchObject({ cvc_sealed: null, cvc_available_until: null, due_at: null });
    expect((await client.revealCard({ merchant_id: 'acct_cvc', mode: Mode.MODE_TEST, card_id: timed.id, token: '', payment_id: '' })).card).toMatchObject({ number: VISA, cvc: '' });

    // An unsaved token loses its code on the same schedule and keeps its number until it expires.
    const tokenizedFrom = Date.now();
    const { token } = await tokenize('acct_cvc');
    expect(await tokens.collection.findOne({ _id: token as never })).toMatchObject({ cvc_sealed: expect.objectContaining({ key_id: 'k1' }) });
    // Deleted by the due work in the background: polled for, and never before its lifetime is over.
    await eventuallyExpect(async () => expect(await tokens.collection.findOne({ _id: token as never })).toMatchObject({ cvc_sealed: null }), 15_000, 100);
    expect(Date.now()).toBeGreaterThanOrEqual(tokenizedFrom + CVC_TTL_MS);
    expect(await tokens.collection.findOne({ _id: token as never })).toMatchObject({ cvc_sealed: null, number_sealed: expect.objectContaining({ key_id: 'k1' }) });
    expect((await client.revealCard({ merchant_id: 'acct_cvc', mode: Mode.MODE_TEST, card_id: '', token, payment_id: 'pay_1' })).card).toMatchObject({ number: VISA, cvc: '' });
  });
});
