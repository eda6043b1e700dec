import { common, type vault } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { fakeClients, type FakeClients } from '../testing/fake-clients';
import { RESTRICTED_KEY, TEST_KEY } from '../testing/fixtures';
import { startApp, type RunningApp } from '../testing/http-harness';

const FULL = { authorization: `Bearer ${TEST_KEY}` };
const RESTRICTED = { authorization: `Bearer ${RESTRICTED_KEY}` };

function protoCard(overrides: Partial<vault.Card> = {}): vault.Card {
  return {
    id: 'card_01jcard',
    mode: common.Mode.MODE_TEST,
    brand: 'visa',
    last4: '4242',
    exp_month: 12,
    exp_year: 2030,
    holder_name: 'MARIA DA SILVA',
    fingerprint: 'fp_abc',
    customer_id: 'cus_01jcus',
    cvc_available_until: '2026-12-01T13:00:00.000Z',
    metadata: { pedido: '1' },
    created_at: '2026-12-01T12:00:00.000Z',
    source_key_id: 'key_bot',
    ...overrides,
  };
}

const CONFIG: vault.CardsConfig = { mode: common.Mode.MODE_TEST, publishable_key: 'pk_test_abc', allowed_origins: ['https://loja.com.br'], enabled: true };

describe('card routes', () => {
  let clients: FakeClients;
  let app: RunningApp;
  beforeEach(async () => {
    clients = fakeClients();
    app = await startApp({ clients });
  });
  afterEach(() => app.close());

  describe('config', () => {
    it('GET answers the config with the absolute script address, also to a restricted key', async () => {
      clients.vault.getCardsConfig = async (request) => {
        expect(request.caller?.key_id).toBe('key_bot');
        return { config: CONFIG };
      };
      const answer = await app.request('GET', '/v1/cards/config', { headers: RESTRICTED });
      expect(answer.status).toBe(200);
      expect(answer.json).toEqual({
        object: 'cards_config',
        mode: 'test',
        script: 'http://localhost:8080/v1/cards/fields.js',
        publishable_key: 'pk_test_abc',
        allowed_origins: ['https://loja.com.br'],
        enabled: true,
      });
    });

    it('PATCH sets the origins (lower-cased, once each) with a full key', async () => {
      const seen: string[][] = [];
      clients.vault.updateCardsConfig = async (request) => {
        seen.push(request.allowed_origins);
        return { config: { ...CONFIG, allowed_origins: request.allowed_origins } };
      };
      const answer = await app.request('PATCH', '/v1/cards/config', { headers: FULL, body: { allowed_origins: ['https://Loja.com.br', 'https://loja.com.br', 'http://localhost:3000'] } });
      expect(answer.status).toBe(200);
      expect(seen).toEqual([['https://loja.com.br', 'http://localhost:3000']]);
      expect(answer.json).toMatchObject({ allowed_origins: ['https://loja.com.br', 'http://localhost:3000'] });
    });

    it('PATCH refuses a restricted key, an origin with a path, and a missing list', async () => {
      expect((await app.request('PATCH', '/v1/cards/config', { headers: RESTRICTED, body: { allowed_origins: [] } })).json).toMatchObject({ error: { code: 'restricted_key' } });
      const withPath = await app.request('PATCH', '/v1/cards/config', { headers: FULL, body: { allowed_origins: ['https://loja.com.br/checkout'] } });
      expect(withPath.status).toBe(400);
      expect(withPath.json).toMatchObject({ error: { code: 'parameter_invalid', param: 'allowed_origins[0]' } });
      const missing = await app.request('PATCH', '/v1/cards/config', { headers: FULL, body: {} });
      expect(missing.json).toMatchObject({ error: { code: 'parameter_missing', param: 'allowed_origins' } });
    });
  });

  describe('POST /v1/cards', () => {
    it('upserts the customer by document, then saves the card for that customer; a restricted key may', async () => {
      const upserts: unknown[] = [];
      const saves: vault.SaveCardRequest[] = [];
      clients.customers.upsertCustomer = async (request) => {
        upserts.push(request.customer);
        return { customer: { id: 'cus_01jcus', name: 'Maria da Silva', email: '', document: '52998224725', phone: '', mode: common.Mode.MODE_TEST, created_at: '', updated_at: '' }, created: true };
      };
      clients.vault.saveCard = async (request) => {
        saves.push(request);
        return { card: protoCard() };
      };
      const answer = await app.request('POST', '/v1/cards', {
        headers: RESTRICTED,
        body: { vault_token: 'tok_01jtok', holder_name: 'MARIA DA SILVA', customer: { name: 'Maria da Silva', document: '529.982.247-25' }, metadata: { pedido: '1' } },
      });
      expect(answer.status).toBe(201);
      expect(answer.headers.get('location')).toBe('/v1/cards/card_01jcard');
      expect(upserts).toEqual([expect.objectContaining({ name: 'Maria da Silva', document: '52998224725' })]);
      expect(saves).toEqual([expect.objectContaining({ vault_token: 'tok_01jtok', holder_name: 'MARIA DA SILVA', customer_id: 'cus_01jcus', metadata: { pedido: '1' } })]);
      expect(answer.json).toEqual({
        id: 'card_01jcard',
        object: 'card',
        mode: 'test',
        brand: 'visa',
        last4: '4242',
        exp_month: 12,
        exp_year: 2030,
        holder_name: 'MARIA DA SILVA',
        fingerprint: 'fp_abc',
        customer: 'cus_01jcus',
        cvc_available_until: '2026-12-01T13:00:00.000Z',
        metadata: { pedido: '1' },
        created_at: '2026-12-01T12:00:00.000Z',
      });
    });

    it('with customer_id saves without touching customers', async () => {
      clients.vault.saveCard = async (request) => ({ card: protoCard({ customer_id: request.customer_id, cvc_available_until: '' }) });
      const answer = await app.request('POST', '/v1/cards', { headers: FULL, body: { vault_token: 'tok_01jtok', holder_name: 'M', customer_id: 'cus_outro' } });
      expect(answer.status).toBe(201);
      expect(answer.json).toMatchObject({ customer: 'cus_outro', cvc_available_until: null });
    });

    it.each([
      [{ holder_name: 'M', customer_id: 'cus_1' }, 'parameter_missing', 'vault_token'],
      [{ vault_token: 'tok_1', customer_id: 'cus_1' }, 'parameter_missing', 'holder_name'],
      [{ vault_token: 'tok_1', holder_name: 'M' }, 'parameter_missing', 'customer'],
      [{ vault_token: 'tok_1', holder_name: 'M', customer_id: 'cus_1', customer: { name: 'A', document: '52998224725' } }, 'parameter_invalid', 'customer_id'],
      [{ vault_token: 'tok_1', holder_name: 'M', customer: { name: 'A' } }, 'parameter_missing', 'customer.document'],
      [{ vault_token: '4242424242424242', holder_name: 'M', customer_id: 'cus_1' }, 'parameter_invalid', 'vault_token'],
    ])('refuses %j with %s on %s, in Portuguese', async (body, code, param) => {
      const answer = await app.request('POST', '/v1/cards', { headers: FULL, body });
      expect(answer.status).toBe(400);
      expect(answer.json).toMatchObject({ error: { code, param } });
      expect((answer.json as { error: { message: string } }).error.message).toMatch(/[Ii]nforme|deve|Envie/);
      expect(answer.text).not.toContain('4242424242424242');
    });
  });

  describe('reading and deleting', () => {
    it('lists with the filters and the cursor', async () => {
      clients.vault.listCards = async (request) => {
        expect(request).toMatchObject({ customer_id: 'cus_01jcus', limit: 5, starting_after: 'card_0' });
        return { data: [protoCard()], has_more: true };
      };
      const answer = await app.request('GET', '/v1/cards?customer_id=cus_01jcus&limit=5&starting_after=card_0', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ object: 'list', has_more: true, data: [{ id: 'card_01jcard', object: 'card' }] });
    });

    it('a restricted key lists no cards and reads only the cards it saved (§5.4)', async () => {
      expect((await app.request('GET', '/v1/cards', { headers: RESTRICTED })).json).toMatchObject({ error: { code: 'restricted_key' } });
      clients.vault.getCard = async ({ card_id }) => ({ card: protoCard({ id: card_id, source_key_id: card_id === 'card_mine' ? 'key_bot' : 'key_full' }) });
      expect((await app.request('GET', '/v1/cards/card_mine', { headers: RESTRICTED })).json).toMatchObject({ id: 'card_mine' });
      const other = await app.request('GET', '/v1/cards/card_theirs', { headers: RESTRICTED });
      expect(other.status).toBe(404);
      expect(other.json).toMatchObject({ error: { code: 'not_found', param: 'id' } });
    });

    it('GET /v1/cards/{id} answers the card; an unknown one is 404 on id', async () => {
      clients.vault.getCard = async ({ card_id }) => {
        if (card_id === 'card_01jcard') return { card: protoCard() };
        throw new AppError('not_found', { param: 'card_id' });
      };
      expect((await app.request('GET', '/v1/cards/card_01jcard', { headers: FULL })).json).toMatchObject({ id: 'card_01jcard', brand: 'visa' });
      const missing = await app.request('GET', '/v1/cards/card_nope', { headers: FULL });
      expect(missing.status).toBe(404);
      expect(missing.json).toMatchObject({ error: { code: 'not_found', param: 'id' } });
    });

    it('DELETE takes a full key and answers the deleted card', async () => {
      const deleted: string[] = [];
      clients.vault.deleteCard = async ({ card_id }) => {
        deleted.push(card_id);
        return { card: protoCard() };
      };
      const refused = await app.request('DELETE', '/v1/cards/card_01jcard', { headers: RESTRICTED });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ error: { code: 'restricted_key' } });
      expect(deleted).toEqual([]);
      const answer = await app.request('DELETE', '/v1/cards/card_01jcard', { headers: FULL });
      expect(answer.status).toBe(200);
      expect(answer.json).toMatchObject({ id: 'card_01jcard', deleted: true });
      expect(deleted).toEqual(['card_01jcard']);
    });

    it('needs a key', async () => {
      expect((await app.request('GET', '/v1/cards')).status).toBe(401);
    });
  });
});
