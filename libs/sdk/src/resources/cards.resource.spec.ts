import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Orquestra } from '../client';
import { PermissionError } from '../errors';

// A real HTTP server plays the API; the test reads the requests the resources send.

interface Seen {
  method: string;
  url: string;
  idempotencyKey: string | undefined;
  body: string;
}

const CARD = { id: 'card_1', object: 'card', brand: 'visa', last4: '4242', customer: 'cus_1', cvc_available_until: null };
let server: Server;
let orquestra: Orquestra;
let seen: Seen[] = [];
let pages: Array<{ object: 'list'; data: Array<{ id: string }>; has_more: boolean }> = [];

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const idempotencyKey = req.headers['idempotency-key'];
      seen.push({ method: req.method ?? '', url: req.url ?? '', idempotencyKey: typeof idempotencyKey === 'string' ? idempotencyKey : undefined, body });
      const url = req.url ?? '';
      if (req.method === 'DELETE' && url === '/v1/cards/card_bot') {
        res.writeHead(403, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { type: 'permission_error', message: 'Chave restrita.', code: 'restricted_key', param: null } }));
        return;
      }
      const answer = url.startsWith('/v1/cards/config')
        ? { object: 'cards_config', mode: 'test', script: 'http://x/v1/cards/fields.js', publishable_key: 'pk_test_1', allowed_origins: body ? JSON.parse(body).allowed_origins : [], enabled: true }
        : req.method === 'GET' && url.startsWith('/v1/cards?')
          ? pages.shift()
          : req.method === 'DELETE'
            ? { ...CARD, deleted: true }
            : CARD;
      res.writeHead(req.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  orquestra = new Orquestra({ apiKey: 'svc_test_x', baseUrl: `http://127.0.0.1:${port}` });
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  pages = [];
});

describe('cards and cardsConfig resources', () => {
  it('saves a card with the body as given and no Idempotency-Key (the token is single-use)', async () => {
    const card = await orquestra.cards.create({ vault_token: 'tok_1', holder_name: 'MARIA', customer: { name: 'Maria', document: '52998224725' }, metadata: { a: '1' } });
    expect(card).toMatchObject({ id: 'card_1', cvc_available_until: null });
    expect(seen).toEqual([
      { method: 'POST', url: '/v1/cards', idempotencyKey: undefined, body: JSON.stringify({ vault_token: 'tok_1', holder_name: 'MARIA', customer: { name: 'Maria', document: '52998224725' }, metadata: { a: '1' } }) },
    ]);
  });

  it('retrieves, lists with filters, walks every page and deletes', async () => {
    await orquestra.cards.retrieve('card/1');
    pages = [{ object: 'list', data: [{ id: 'card_1' }], has_more: false }];
    await orquestra.cards.list({ customer_id: 'cus_1', limit: 5 });
    pages = [
      { object: 'list', data: [{ id: 'card_a' }, { id: 'card_b' }], has_more: true },
      { object: 'list', data: [{ id: 'card_c' }], has_more: false },
    ];
    const all: string[] = [];
    for await (const card of orquestra.cards.listAll({ customer_id: 'cus_1', limit: 2 })) all.push(card.id);
    expect(all).toEqual(['card_a', 'card_b', 'card_c']);
    expect(await orquestra.cards.delete('card_1')).toMatchObject({ id: 'card_1', deleted: true });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([
      'GET /v1/cards/card%2F1',
      'GET /v1/cards?customer_id=cus_1&limit=5',
      'GET /v1/cards?customer_id=cus_1&limit=2',
      'GET /v1/cards?customer_id=cus_1&limit=2&starting_after=card_b',
      'DELETE /v1/cards/card_1',
    ]);
  });

  it('answers the API error of a refused delete as a PermissionError', async () => {
    const error = await orquestra.cards.delete('card_bot').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PermissionError);
    expect(error).toMatchObject({ statusCode: 403, code: 'restricted_key' });
  });

  it('reads and replaces the card fields config', async () => {
    expect(await orquestra.cardsConfig.retrieve()).toMatchObject({ publishable_key: 'pk_test_1', script: 'http://x/v1/cards/fields.js' });
    expect(await orquestra.cardsConfig.update({ allowed_origins: ['https://loja.com.br'] })).toMatchObject({ allowed_origins: ['https://loja.com.br'] });
    expect(seen.map((s) => `${s.method} ${s.url} ${s.body}`)).toEqual(['GET /v1/cards/config ', 'PATCH /v1/cards/config {"allowed_origins":["https://loja.com.br"]}']);
  });
});
