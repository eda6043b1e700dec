/**
 * Splits in the Asaas emulator over HTTP: refusals in Asaas's error shape (unknown wallet, own
 * wallet, percentualValue, parts above the net value), the parts kept and echoed, each part
 * credited to its wallet's own balance when the charge is received (only the rest to the account),
 * a card's parts awaiting credit, and a refund taking the parts back proportionally.
 */
import { createAsaasEmulator, type AsaasEmulator } from './asaas-emulator';

const KEY = '$aact_hmlg_000c3BsaXRzLWVtdWxhdG9yLXNwZWM';
const OTHER = '$aact_hmlg_000c3BsaXRzLW91dHJhLWNvbnRh';
let emulator: AsaasEmulator;
let api: string;
let control: string;
let customer: string;
let wallet: string;
let ownWallet: string;

const call = async (method: string, path: string, body?: unknown, key = KEY) => {
  const response = await fetch(`${api}${path}`, { method, headers: { 'content-type': 'application/json', access_token: key, 'user-agent': 'orquestra-spec' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, text: await response.text() };
};
const json = (text: string) => JSON.parse(text) as Record<string, any>;
const ctl = async (path: string, body: unknown = {}) => (await fetch(`${control}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).status;
const balance = async (key: string) => /"balance":(-?[\d.]+)/.exec((await call('GET', '/finance/balance', undefined, key)).text)?.[1];
/** The balance's reais text as cents (for comparing; the text itself is exact). */
const cents = (text: string | undefined) => Math.round(Number(text) * 100);
const payment = (split: unknown, billingType = 'PIX') => call('POST', '/payments', { customer, billingType, value: 100.0, dueDate: '2999-12-31', split });

beforeAll(async () => {
  emulator = createAsaasEmulator({ accounts: [{ api_key: KEY }, { api_key: OTHER }], webhooks: { retries: 0 }, refundSettleMs: 20, pixFeeCents: 199 });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}/v3`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  customer = json((await call('POST', '/customers', { name: 'Maria', cpfCnpj: '52998224725' })).text)['id'] as string;
  const register = async (apiKey: string) => json(await (await fetch(`${control}/__control/accounts`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ api_key: apiKey }) })).text())['walletId'] as string;
  wallet = await register(OTHER);
  ownWallet = await register(KEY);
});

afterAll(async () => {
  await emulator?.stop();
});

describe('Asaas emulator splits', () => {
  it('refuses, as Asaas does, an unknown wallet, its own wallet, percentualValue and parts above the net value', async () => {
    const refused = async (split: unknown) => {
      const answer = await payment(split);
      expect(answer.status).toBe(400);
      return json(answer.text)['errors'][0] as { code: string; description: string };
    };
    expect(await refused([{ walletId: 'nope', fixedValue: 1 }])).toEqual({ code: 'invalid_split', description: 'A carteira [nope] não foi encontrada.' });
    expect((await refused([{ walletId: ownWallet, fixedValue: 1 }])).description).toContain('própria carteira');
    expect((await refused([{ walletId: wallet, percentualValue: 10 }])).description).toContain('percentualValue');
    // R$ 100,00 less the R$ 1,99 fee leaves R$ 98,01.
    expect((await refused([{ walletId: wallet, fixedValue: 98.02 }])).description).toContain('excede o valor líquido');
    expect((await refused({ walletId: wallet })).code).toBe('invalid_split');
  });

  it('keeps and echoes the parts; paid, credits each wallet its part and the account the rest net of the fee', async () => {
    const [mine, theirs] = [await balance(KEY), await balance(OTHER)];
    const made = await payment([{ walletId: wallet, fixedValue: 98.01 }]);
    expect(made.status).toBe(200);
    const id = json(made.text)['id'] as string;
    expect((await call('GET', `/payments/${id}`)).text).toMatch(new RegExp(`"split":\\[\\{"id":"[^"]+","walletId":"${wallet}","fixedValue":98.01,"percentualValue":null,"totalValue":98.01,[^\\]]*"status":"PENDING"`));
    expect(await ctl(`/__control/charges/${id}/pay`)).toBe(200);
    expect((await call('GET', `/payments/${id}`)).text).toContain('"status":"DONE"');
    expect(cents(await balance(OTHER))).toBe(cents(theirs) + 9_801);
    expect(await balance(KEY)).toBe(mine);
  });

  it("a card's parts await credit with the account's own money", async () => {
    const made = await payment([{ walletId: wallet, fixedValue: 10 }], 'CREDIT_CARD');
    const id = json(made.text)['id'] as string;
    const before = await balance(OTHER);
    expect(await ctl(`/__control/charges/${id}/pay`)).toBe(200);
    expect((await call('GET', `/payments/${id}`)).text).toContain('"status":"AWAITING_CREDIT"');
    expect(await balance(OTHER)).toBe(before);
  });

  it('a refund takes back from each credited part its share, rounded down; a full refund all of it', async () => {
    await ctl('/__control/balance/credit', { account: KEY, amount: 100_000 });
    const made = await call('POST', '/payments', { customer, billingType: 'PIX', value: 30.0, dueDate: '2999-12-31', split: [{ walletId: wallet, fixedValue: 10.01 }] });
    const id = json(made.text)['id'] as string;
    await ctl(`/__control/charges/${id}/pay`);
    const [mine, theirs] = [await balance(KEY), await balance(OTHER)];
    // R$ 10,00 of R$ 30,00: floor(1001 × 1000 / 3000) = 333 from the wallet, 667 from the account.
    expect((await call('POST', `/payments/${id}/refund`, { value: 10.0 })).status).toBe(200);
    expect(cents(await balance(OTHER))).toBe(cents(theirs) - 333);
    expect(cents(await balance(KEY))).toBe(cents(mine) - 667);
    expect((await call('POST', `/payments/${id}/refund`, {})).status).toBe(200);
    expect(cents(await balance(OTHER))).toBe(cents(theirs) - 1_001);
    expect(cents(await balance(KEY))).toBe(cents(mine) - (3_000 - 1_001));
  });
});
