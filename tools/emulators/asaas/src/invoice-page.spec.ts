import { createServer, type Server } from 'node:http';
import { createAsaasEmulator, type AsaasEmulator } from './asaas-emulator';
import { TEST_CARDS } from './test-cards';

const KEY = '$aact_hmlg_000aW52b2ljZS1wYWdlLXNwZWMtZW11bGF0b3Itc3BlYw';
const CPF = '52998224725';

let emulator: AsaasEmulator;
let api: string;
let control: string;
let receiver: Server;
const events: Array<{ event: string; payment: { id: string; status: string } }> = [];

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${api}/v3${path}`, {
    method,
    headers: { access_token: KEY, 'user-agent': 'orquestra-spec', 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
}

async function cardCharge(billingType = 'CREDIT_CARD') {
  const customer = await call('POST', '/customers', { name: 'Maria Souza', cpfCnpj: CPF });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const created = await call('POST', '/payments', { customer: customer.json['id'], billingType, value: 49.9, dueDate: tomorrow, description: 'Pedido <b>42</b>' });
  expect(created.status).toBe(200);
  return created.json;
}

/** Submits the invoice form as a browser would (urlencoded), without following the redirect. */
function submit(invoiceUrl: string, fields: Record<string, string>) {
  return fetch(invoiceUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString(), redirect: 'manual' });
}

const card = (number: string) => ({ number, holder: 'MARIA SOUZA', expiry: '12/39', cvv: '123' });
const eventsFor = (id: string) => events.filter((e) => e.payment.id === id).map((e) => e.event);

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: KEY }], webhooks: { retries: 0 } });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      events.push(JSON.parse(body));
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const port = (receiver.address() as { port: number }).port;
  const hook = await call('POST', '/webhooks', {
    name: 'spec',
    url: `http://127.0.0.1:${port}/hook`,
    sendType: 'SEQUENTIALLY',
    authToken: 'a'.repeat(40),
    events: ['PAYMENT_CONFIRMED', 'PAYMENT_RECEIVED', 'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED', 'PAYMENT_REPROVED_BY_RISK_ANALYSIS'],
  });
  expect(hook.status).toBe(200);
});

afterAll(async () => {
  await emulator.stop();
  await new Promise((resolve) => receiver.close(resolve));
});

describe('card charges paid on the hosted invoice page', () => {
  it('creates a CREDIT_CARD charge without card data whose invoiceUrl serves a card form on the control port', async () => {
    const payment = await cardCharge();
    expect(payment).toMatchObject({ billingType: 'CREDIT_CARD', status: 'PENDING' });
    expect(payment['invoiceUrl']).toBe(`http://127.0.0.1:${new URL(control).port}/i/${String(payment['id']).slice(4)}`);
    const page = await fetch(payment['invoiceUrl']);
    expect(page.status).toBe(200);
    expect(page.headers.get('cache-control')).toBe('no-store');
    const html = await page.text();
    expect(html).toContain('R$ 49,90');
    expect(html).toContain('Pedido &lt;b&gt;42&lt;/b&gt;');
    for (const field of ['card-number', 'card-holder', 'card-expiry', 'card-cvv']) expect(html).toContain(`id="${field}"`);
    // A card charge has no Pix QR code.
    expect((await call('GET', `/payments/${payment['id']}/pixQrCode`)).status).toBe(400);
  });

  it('refuses card data in the create call (the card is typed on the page)', async () => {
    const customer = await call('POST', '/customers', { name: 'Maria Souza', cpfCnpj: CPF });
    const refused = await call('POST', '/payments', { customer: customer.json['id'], billingType: 'CREDIT_CARD', value: 10, dueDate: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10), creditCardToken: 'x' });
    expect(refused.status).toBe(400);
  });

  it('answers a malformed card with the form again and changes nothing', async () => {
    const payment = await cardCharge();
    const answer = await submit(payment['invoiceUrl'], card('4111111111111112'));
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('Número do cartão inválido.');
    expect(await submit(payment['invoiceUrl'], { ...card(TEST_CARDS.approved[0]), expiry: '01/20' }).then((r) => r.status)).toBe(400);
    expect((await call('GET', `/payments/${payment['id']}`)).json['status']).toBe('PENDING');
  });

  it('confirms an approved card: CONFIRMED, creditCard reported, PAYMENT_CONFIRMED sent, page shows it paid', async () => {
    const payment = await cardCharge();
    const answer = await submit(payment['invoiceUrl'], card('4111 1111 1111 1111'));
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/i/${String(payment['id']).slice(4)}`);
    const read = await call('GET', `/payments/${payment['id']}`);
    expect(read.json).toMatchObject({ status: 'CONFIRMED', creditCard: { creditCardNumber: '1111', creditCardBrand: 'VISA' } });
    await emulator.webhooksIdle();
    expect(eventsFor(payment['id'])).toEqual(['PAYMENT_CONFIRMED']);
    expect(await (await fetch(payment['invoiceUrl'])).text()).toContain('Pagamento confirmado com o cartão VISA final 1111');
    // Paying twice is refused.
    expect((await submit(payment['invoiceUrl'], card(TEST_CARDS.approved[0]))).status).toBe(409);
  });

  it('declines the test cards with the events Asaas sends; the charge stays open for another card', async () => {
    const payment = await cardCharge();
    const refused = await submit(payment['invoiceUrl'], card(TEST_CARDS.refused));
    expect(refused.status).toBe(402);
    expect(await refused.text()).toContain('Transação não autorizada pelo banco emissor. Tente outro cartão.');
    const risky = await submit(payment['invoiceUrl'], card(TEST_CARDS.riskReproved));
    expect(risky.status).toBe(402);
    expect((await call('GET', `/payments/${payment['id']}`)).json['status']).toBe('PENDING');
    await emulator.webhooksIdle();
    expect(eventsFor(payment['id'])).toEqual(['PAYMENT_CREDIT_CARD_CAPTURE_REFUSED', 'PAYMENT_REPROVED_BY_RISK_ANALYSIS']);
  });

  it('offers control routes: decline and pay a card charge without the form; 409 for a Pix charge decline', async () => {
    const payment = await cardCharge();
    const declined = await fetch(`${control}/__control/charges/${payment['id']}/decline`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ event: 'PAYMENT_REPROVED_BY_RISK_ANALYSIS' }) });
    expect(declined.status).toBe(200);
    const paid = await fetch(`${control}/__control/charges/${payment['id']}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(paid.status).toBe(200);
    expect((await call('GET', `/payments/${payment['id']}`)).json['status']).toBe('CONFIRMED');
    await emulator.webhooksIdle();
    expect(eventsFor(payment['id'])).toEqual(['PAYMENT_REPROVED_BY_RISK_ANALYSIS', 'PAYMENT_CONFIRMED']);
    const pix = await cardCharge('PIX');
    const refusedDecline = await fetch(`${control}/__control/charges/${pix['id']}/decline`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(refusedDecline.status).toBe(409);
    expect((await fetch(`${control}/i/zzz`)).status).toBe(404);
  });
});
