import { randomUUID } from 'node:crypto';
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

/**
 * A valid alphanumeric CNPJ (Receita Federal, from July 2026) from 12 random letters and digits:
 * each character is worth its ASCII code minus 48, weights 2..9 from the right, modulo 11.
 */
function randomAlphanumericCnpj(): string {
  const alphabet = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const base = Array.from({ length: 12 }, () => alphabet[Math.floor(Math.random() * alphabet.length)]).join('');
  const check = (chars: string) => {
    const rest = [...chars].reverse().reduce((acc, ch, i) => acc + (ch.charCodeAt(0) - 48) * ((i % 8) + 2), 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  const d1 = check(base);
  return `${base}${d1}${check(`${base}${d1}`)}`;
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

  it('takes the alphanumeric CNPJ in any case, and refuses a document whose check digits fail', async () => {
    const cnpj = randomAlphanumericCnpj();
    const written = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`.toLowerCase();
    const payment = await createPix({ customer: { name: 'Empresa Alfa Ltda', document: written } });
    expect(payment.customer).toMatchObject({ document: cnpj, id: expect.stringMatching(/^cus_/) });
    const found = await api('GET', `/v1/customers?document=${encodeURIComponent(written)}`);
    expect(found.body.data.map((c: { id: string; document: string }) => [c.id, c.document])).toEqual([[payment.customer.id, cnpj]]);

    const wrongDigit = `${cnpj.slice(0, 13)}${(Number(cnpj[13]) + 1) % 10}`;
    for (const document of ['529.982.247-24', '111.111.111-11', wrongDigit]) {
      const refused = await api('POST', '/v1/payments', { idempotencyKey: randomUUID(), body: { method: 'pix', amount: 1990, customer: { name: 'Ana', document } } });
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'parameter_invalid', param: 'customer.document', message: expect.stringContaining('confira os dígitos verificadores') });
    }
    const badQuery = await api('GET', '/v1/customers?document=529.982.247-24');
    expect(badQuery.status).toBe(400);
    expect(badQuery.body.error).toMatchObject({ param: 'document', message: expect.stringContaining('dígitos verificadores') });
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
