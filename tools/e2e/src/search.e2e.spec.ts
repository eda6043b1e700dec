import { randomUUID } from 'node:crypto';
import { api, createPix } from './support/api';

/** A valid CPF built from 9 random digits (check digits computed), so every run has its own. */
function randomCpf(): string {
  const base = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  const check = (digits: number[]) => {
    const sum = digits.reduce((acc, d, i) => acc + d * (digits.length + 1 - i), 0);
    const rest = (sum * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const d1 = check(base);
  const d2 = check([...base, d1]);
  return [...base, d1, d2].join('');
}

const ids = (body: Record<string, any>): string[] => (body.data as Array<{ id: string }>).map((p) => p.id);

describe('GET /v1/payments?q= (search) and pagination under creation', () => {
  const tag = randomUUID().slice(0, 8);
  const cpf = randomCpf();
  const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;
  let byDocument: string;
  let byEmail: string;

  beforeAll(async () => {
    byDocument = (await createPix({ customer: { name: `Joana Busca ${tag}`, document: formatted } })).id;
    byEmail = (await createPix({ customer: { name: `Carlos Procura ${tag}`, email: `carlos.${tag}@example.com` } })).id;
  });

  it('finds by payment id', async () => {
    expect(ids((await api('GET', `/v1/payments?q=${byEmail}`)).body)).toEqual([byEmail]);
  });

  it('finds by the customer’s e-mail, whatever the case', async () => {
    expect(ids((await api('GET', `/v1/payments?q=${encodeURIComponent(`CARLOS.${tag}@Example.com`)}`)).body)).toEqual([byEmail]);
  });

  it('finds by part of the customer’s name', async () => {
    expect(ids((await api('GET', `/v1/payments?q=${encodeURIComponent(`busca ${tag}`)}`)).body)).toEqual([byDocument]);
  });

  it('finds by document with or without punctuation', async () => {
    expect(ids((await api('GET', `/v1/payments?q=${cpf}`)).body)).toEqual([byDocument]);
    expect(ids((await api('GET', `/v1/payments?q=${encodeURIComponent(formatted)}`)).body)).toEqual([byDocument]);
  });

  it('finds nothing for an unknown value, and refuses an empty q', async () => {
    const none = await api('GET', `/v1/payments?q=${encodeURIComponent(`ninguem-${tag}@example.com`)}`);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({ data: [], has_more: false });
    const empty = await api('GET', '/v1/payments?q=');
    expect(empty.status).toBe(400);
    expect(empty.body.error.param).toBe('q');
  });

  it('pages without skipping or repeating while new payments are being created', async () => {
    const name = `Pagina ${tag}`;
    const first: string[] = [];
    for (let i = 0; i < 5; i++) first.push((await createPix({ customer: { name } })).id);
    const seen: string[] = [];
    let cursor = '';
    // Another client keeps creating payments with the same name, concurrently, the whole time.
    let paging = true;
    const made: string[] = [];
    const creator = (async () => {
      while (paging) made.push((await createPix({ customer: { name } })).id);
    })();
    try {
      for (let page = 0; page < 10; page++) {
        const body = (await api('GET', `/v1/payments?q=${encodeURIComponent(name)}&limit=2${cursor ? `&starting_after=${cursor}` : ''}`)).body;
        seen.push(...ids(body));
        // Between pages too, for certain: newer payments sort before the cursor and never shift the rest.
        made.push((await createPix({ customer: { name } })).id);
        if (!body.has_more) break;
        cursor = body.data[body.data.length - 1].id;
      }
    } finally {
      paging = false;
      await creator;
    }
    expect(made.length).toBeGreaterThan(1);
    // Nothing repeated, newest first throughout, and every payment older than the first page is there, in order.
    expect(new Set(seen).size).toBe(seen.length);
    expect([...seen].sort().reverse()).toEqual(seen);
    expect(seen.slice(-first.length)).toEqual([...first].reverse());
    // Only payments made while paging can precede them, and only on the first page.
    const newer = seen.slice(0, -first.length);
    expect(newer.every((id) => made.includes(id))).toBe(true);
    expect(newer.length).toBeLessThanOrEqual(2); // the first page's size
  });
});
