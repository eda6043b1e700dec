import { common, vault } from '@orquestra/contracts';
import { connectDatabase, createRpcClient, ensureIndexes, EventBus, GrpcServer, OutboxRelay, REDACT_PATHS, SecretBox } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, eventually, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { registerCardModel } from '../db/card.model';
import { registerCardTokenModel } from '../db/card-token.model';
import { registerCardsConfigModel } from '../db/cards-config.model';
import { vaultDueWork } from '../jobs/vault-due-work';
import { CardsConfigService } from '../use-cases/cards-config.service';
import { CardsService } from '../use-cases/cards.service';
import { vaultHandlers } from './vault.handlers';

jest.setTimeout(60_000);

const PAN = '5067224275805500';
const CVC = '918';

/**
 * Card numbers and security codes never reach a log line of the vault: every RPC of the vault is
 * run at trace level with the platform's redaction (the same paths createLogger uses), including
 * refusals, a failing reveal (a key the vault does not have) and the due work, and the requests
 * and answers that carry card data are also logged on purpose, as a careless caller would.
 */
describe('vault logs keep no card data', () => {
  it('no number, no security code, in any line', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    });
    const logger = pino({ level: 'trace', redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink);
    const infra = await ensureTestInfra();
    const prefix = uniqueDbPrefix('vault_logs');
    const db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}vault`, logger });
    const bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
    await bus.start();
    const cards = registerCardModel(db);
    const tokens = registerCardTokenModel(db);
    const configs = new CardsConfigService(registerCardsConfigModel(db));
    await ensureIndexes(db);
    const outbox = new OutboxRelay({ bus, logger });
    await outbox.watch(cards.collection);
    const service = new CardsService(cards, tokens, configs, SecretBox.fromConfig(`k1:${randomBytes(32).toString('base64')}`), outbox, {
      fingerprintKey: randomBytes(32).toString('base64'),
      // Long enough for the reveals below on a loaded machine; its expiry is brought forward below.
      cvcTtlMs: 60_000,
      tokenTtlMs: 3_600_000,
    });
    const due = vaultDueWork(cards, tokens, service, logger, 100);
    due.cardCvc.start();
    const server = new GrpcServer(logger);
    server.addService(vault.VaultServiceService, vaultHandlers(configs, service));
    const port = await server.listen('127.0.0.1:0');
    const client = createRpcClient(vault.VaultServiceService, `127.0.0.1:${port}`, { deadlineMs: 10_000 });
    try {
      const caller = common.Caller.fromPartial({ merchant_id: 'acct_logs', mode: common.Mode.MODE_TEST, key_id: 'key_1' });
      const { config } = await client.getCardsConfig({ caller });
      const request = { publishable_key: config!.publishable_key, origin: 'https://loja.com', number: PAN, exp_month: 12, exp_year: new Date().getUTCFullYear() + 3, cvc: CVC };
      logger.info({ request }, 'tokenize request (logged on purpose)');
      const tokenized = await client.tokenize(request);
      for (const refused of [{ number: `${PAN.slice(0, -1)}1` }, { cvc: '1' }, { exp_month: 13 }]) {
        await client.tokenize({ ...request, ...refused }).catch((error: Error) => logger.warn({ err: error }, 'tokenize refused'));
      }
      const revealedToken = await client.revealCard({ merchant_id: 'acct_logs', mode: common.Mode.MODE_TEST, card_id: '', token: tokenized.token, payment_id: 'pay_logs' });
      logger.info({ response: revealedToken }, 'reveal answer (logged on purpose)');
      logger.debug({ card: revealedToken.card }, 'the card alone');
      const { card } = await client.saveCard({ caller, vault_token: tokenized.token, holder_name: 'Ana', customer_id: 'cus_1', metadata: {} });
      const revealed = await client.revealCard({ merchant_id: 'acct_logs', mode: common.Mode.MODE_TEST, card_id: card!.id, token: '', payment_id: '' });
      expect(revealed.card).toMatchObject({ number: PAN, cvc: CVC });
      logger.info({ revealed }, 'reveal answer, nested (logged on purpose)');
      // A reveal that fails unexpectedly: the card sealed with a key this vault does not have.
      await cards.updateOne({ _id: card!.id }, { $set: { 'number_sealed.key_id': 'k0' } });
      await expect(client.revealCard({ merchant_id: 'acct_logs', mode: common.Mode.MODE_TEST, card_id: card!.id, token: '', payment_id: '' })).rejects.toMatchObject({ code: 'internal' });
      // The due work deletes the security code once its time is up (brought forward here; polled:
      // a loaded machine runs it late).
      const past = new Date(Date.now() - 1_000);
      await cards.updateOne({ _id: card!.id }, { $set: { cvc_available_until: past, due_at: past } });
      await eventually(async () => (await cards.collection.findOne({ _id: card!.id as never }))?.['cvc_sealed'] ?? null, null, 20_000);
    } finally {
      client.close();
      await due.cardCvc.stop();
      await server.shutdown(1_000);
      await bus.close();
      await dropTestDatabase(db);
    }
    const text = lines.join('');
    expect(text).toContain('unhandled error in gRPC handler');
    expect(text).toContain('[redacted]');
    expect(text).not.toContain(PAN);
    expect(text).not.toContain(PAN.slice(0, 6) + PAN.slice(6, 12));
    expect(text).not.toMatch(new RegExp(`"(cvc|security_code)":"${CVC}"`));
    expect(text).not.toContain(`"${CVC}"`);
  });
});
