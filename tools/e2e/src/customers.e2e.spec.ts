import { api, createPix } from './support/api';
import { stackInfo } from './support/stack-info';

/** A valid CPF from 9 random digits (check digits computed), unique per run. */
function randomCpf(): string {
  const base = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  const check = (digits: number[]) => {
    const rest = (digits.reduce((acc, d, i) => acc + d * (digits.length + 1 - i), 0) * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const d1 = check(base);
  return [...base, d1, check([...base, d1])].join('');
}

describe('customers (cus_…), one per document, merchant and mode', () => {
  const cpf = randomCpf();
  const formatted = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`;

  it('links payments naming the same document, however it is written, to one customer record', async () => {
    const first = await createPix({ customer: { name: 'Ana Cliente', email: 'ana@example.com', document: formatted } });
    const second = await createPix({ customer: { name: 'Ana C. Cliente', document: cpf, phone: '+5511988887777' } });
    expect(first.customer.id).toMatch(/^cus_[0-9a-z]{26}$/);
    expect(second.customer.id).toBe(first.customer.id);
    // The payment keeps the data it was created with; the record keeps the latest contact data.
    expect(second.customer).toMatchObject({ name: 'Ana C. Cliente', document: cpf });

    const record = await api('GET', `/v1/customers/${first.customer.id}`);
    expect(record.status).toBe(200);
    expect(record.body).toMatchObject({
      id: first.customer.id,
      object: 'customer',
      name: 'Ana C. Cliente',
      email: 'ana@example.com',
      document: cpf,
      phone: '+5511988887777',
      mode: 'test',
    });
    const byDocument = await api('GET', `/v1/customers?document=${encodeURIComponent(formatted)}`);
    expect(byDocument.body.data.map((c: { id: string }) => c.id)).toEqual([first.customer.id]);
    const byEmail = await api('GET', `/v1/customers?email=${encodeURIComponent('ANA@example.com')}`);
    expect(byEmail.body.data.map((c: { id: string }) => c.id)).toContain(first.customer.id);
  });

  it('creates no record without a document', async () => {
    const payment = await createPix({ customer: { name: 'Sem Documento' } });
    expect(payment.customer.id).toBeNull();
  });

  it('keeps test and live customers apart and refuses restricted keys', async () => {
    const payment = await createPix({ customer: { name: 'Teste', document: randomCpf() } });
    const fromLive = await api('GET', `/v1/customers/${payment.customer.id}`, { key: stackInfo().liveKey });
    expect(fromLive.status).toBe(404);
    expect(fromLive.body.error.message).toMatch(/Cliente/);
    const restricted = await api('GET', '/v1/customers', { key: stackInfo().restrictedTestKey });
    expect(restricted.status).toBe(403);
    expect(restricted.body.error.code).toBe('restricted_key');
    const bad = await api('GET', '/v1/customers?document=abc');
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('document');
  });
});
