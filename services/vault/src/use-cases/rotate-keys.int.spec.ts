import { connectDatabase, ensureIndexes, SecretBox } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import { randomBytes } from 'node:crypto';
import type { Connection, Model } from 'mongoose';
import pino from 'pino';
import { registerCardModel, type CardDoc, type CardModel } from '../db/card.model';
import { registerCardTokenModel, type CardTokenModel } from '../db/card-token.model';
import { rotateSealedCardData } from './rotate-keys';

jest.setTimeout(60_000);

const key = () => randomBytes(32).toString('base64');

/** Key rotation against the real store: two keys, cards and tokens, a run stopped halfway, a second run. */
describe('rotateSealedCardData', () => {
  let db: Connection;
  let cards: CardModel;
  let tokens: CardTokenModel;
  const logger = pino({ level: 'silent' });
  const k1 = `k1:${key()}`;
  const k2 = `k2:${key()}`;
  const oldBox = SecretBox.fromConfig(k1);
  const newBox = SecretBox.fromConfig(`${k2},${k1}`);

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('vault_rotate')}vault`, logger });
    cards = registerCardModel(db);
    tokens = registerCardTokenModel(db);
    await ensureIndexes(db);
  });
  afterAll(async () => {
    await dropTestDatabase(db);
  });

  function card(i: number, withCvc: boolean): CardDoc {
    const now = new Date();
    return {
      _id: `card_${String(i).padStart(3, '0')}`,
      merchant_id: 'acct_r',
      mode: 'test',
      source_key_id: '',
      customer_id: 'cus_1',
      token_id: `tok_${i}`,
      brand: 'visa',
      last4: '1111',
      exp_month: 12,
      exp_year: 2031,
      holder_name: 'Ana',
      fingerprint: 'fp',
      number_sealed: oldBox.seal(`41111111111111${String(i).padStart(2, '0')}`),
      cvc_sealed: withCvc ? oldBox.seal(String(100 + i)) : null,
      cvc_available_until: withCvc ? new Date(now.getTime() + 3_600_000) : null,
      metadata: {},
      created_at: now,
      updated_at: now,
      deleted_at: null,
      due_at: null,
      outbox: [],
      outbox_since: null,
    };
  }

  it('re-seals every number and code with the first key, keeps them readable, and a second run finds nothing', async () => {
    await cards.insertMany(Array.from({ length: 250 }, (_, i) => card(i, i % 2 === 0)));
    const now = new Date();
    await tokens.create({
      _id: 'tok_r1', merchant_id: 'acct_r', mode: 'test', brand: 'visa', last4: '1111', exp_month: 12, exp_year: 2031, fingerprint: 'fp',
      number_sealed: oldBox.seal('4111111111111111'), cvc_sealed: oldBox.seal('123'), cvc_available_until: now, origin: '', created_at: now, expires_at: now, used_at: null, card_id: '', due_at: null,
    });
    // A card already sealed with the new key is left as it is.
    await cards.create({ ...card(900, true), number_sealed: newBox.seal('4111111111111900'), cvc_sealed: newBox.seal('900') });
    const models = [cards, tokens] as unknown as Array<Model<never>>;

    const first = await rotateSealedCardData(models, newBox, logger);
    expect(first).toEqual({ resealed: 251, skipped: 0, remaining: 0 });
    const all = await cards.find().lean<CardDoc[]>().exec();
    for (const doc of all) {
      expect(doc.number_sealed!.key_id).toBe('k2');
      if (doc.cvc_sealed) expect(doc.cvc_sealed.key_id).toBe('k2');
    }
    const c7 = all.find((d) => d._id === 'card_008')!;
    // Readable with the new key alone once rotated: the old key can be dropped.
    const onlyNew = SecretBox.fromConfig(k2);
    expect(onlyNew.open(c7.number_sealed!)).toBe('4111111111111108');
    expect(onlyNew.open(c7.cvc_sealed!)).toBe('108');
    expect(all.find((d) => d._id === 'card_001')!.cvc_sealed).toBeNull();
    const token = await tokens.findById('tok_r1').lean().exec();
    expect(onlyNew.open(token!.number_sealed!)).toBe('4111111111111111');

    expect(await rotateSealedCardData(models, newBox, logger)).toEqual({ resealed: 0, skipped: 0, remaining: 0 });
  });

  it('resumes: what a stopped run did stays, the rest is done by the next; a code deleted meanwhile is not brought back', async () => {
    await cards.deleteMany({});
    await cards.insertMany(Array.from({ length: 10 }, (_, i) => card(i, true)));
    // As if a first run stopped after three documents.
    for (const id of ['card_000', 'card_001', 'card_002']) {
      const doc = await cards.findById(id).lean<CardDoc>().exec();
      await cards.updateOne({ _id: id }, { $set: { number_sealed: newBox.seal(newBox.open(doc!.number_sealed!)), cvc_sealed: newBox.seal(newBox.open(doc!.cvc_sealed!)) } });
    }
    await cards.updateOne({ _id: 'card_005' }, { $set: { cvc_sealed: null, cvc_available_until: null } });
    const result = await rotateSealedCardData([cards] as unknown as Array<Model<never>>, newBox, logger);
    expect(result).toEqual({ resealed: 7, skipped: 0, remaining: 0 });
    const five = await cards.findById('card_005').lean<CardDoc>().exec();
    expect(five!.cvc_sealed).toBeNull();
    expect(newBox.open(five!.number_sealed!)).toBe('4111111111111105');
  });
});
