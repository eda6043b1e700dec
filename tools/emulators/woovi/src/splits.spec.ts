/**
 * Splits and withdrawals in the Woovi emulator over HTTP: refusals in Woovi's `{error}` shape
 * (unknown Pix key, SPLIT_PARTNER, parts above the net value), the parts kept and echoed, each part
 * credited to its subaccount's balance when paid (only the rest to the account), a refund from the
 * account alone, and the whole-balance withdrawal kept for the control route.
 */
import { createWooviEmulator, type WooviEmulator } from './woovi-emulator';

const APP_ID = 'QXBwSWRfc3BsaXRzX3NwZWM';
const ANA = 'ana@exemplo.com';
const BIA = 'bia@exemplo.com';
let emulator: WooviEmulator;
let api: string;
let control: string;

const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${api}${path}`, { method, headers: { authorization: APP_ID, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};
const ctl = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${control}${path}`, { method, headers: { 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: response.status, json: (await response.json()) as Record<string, any> };
};
const balanceOf = async (pixKey: string) => (await call('GET', `/subaccount/${encodeURIComponent(pixKey)}`)).json['SubAccount'].balance as number;
const mainBalance = async () => (await ctl('GET', `/__control/balance?account=${APP_ID}`)).json['available'] as number;
let n = 0;
const charge = (value: number, splits: unknown) => call('POST', '/charge', { correlationID: `split-spec-${(n += 1)}`, value, splits });

beforeAll(async () => {
  // 100 bps: a R$ 100,00 charge pays R$ 1,00 of fee.
  emulator = createWooviEmulator({ accounts: [APP_ID], webhooks: { retries: 0 }, feeBasisPoints: 100, refundSettleMs: 20 });
  const ports = await emulator.start();
  api = `http://127.0.0.1:${ports.apiPort}/api/v1`;
  control = `http://127.0.0.1:${ports.controlPort}`;
  await call('POST', '/subaccount', { name: 'Ana', pixKey: ANA });
  await call('POST', '/subaccount', { name: 'Bia', pixKey: BIA });
});

afterAll(async () => {
  await emulator?.stop();
});

describe('Woovi emulator splits', () => {
  it('refuses an unknown Pix key, SPLIT_PARTNER, bad values and parts above the net value', async () => {
    expect(await charge(10_000, [{ value: 100, pixKey: 'ninguem@exemplo.com', splitType: 'SPLIT_SUB_ACCOUNT' }])).toEqual({ status: 400, json: { error: 'Subconta não encontrada para a chave Pix ninguem@exemplo.com' } });
    expect((await charge(10_000, [{ value: 100, pixKey: ANA, splitType: 'SPLIT_PARTNER' }])).json['error']).toContain('SPLIT_PARTNER');
    expect((await charge(10_000, [{ value: 1.5, pixKey: ANA }])).json['error']).toBe('splits[].value deve ser um inteiro em centavos');
    expect(await charge(10_000, [{ value: 9_000, pixKey: ANA }, { value: 901, pixKey: BIA }])).toEqual({ status: 400, json: { error: 'A soma dos splits (9901) é maior que o valor líquido da cobrança (9900)' } });
  });

  it('keeps and echoes the parts; paid, credits each subaccount its part and the account the rest net of the fee; a refund comes from the account', async () => {
    const [ana, bia, main] = [await balanceOf(ANA), await balanceOf(BIA), await mainBalance()];
    const made = await charge(10_000, [{ value: 3_333, pixKey: ANA, splitType: 'SPLIT_SUB_ACCOUNT' }, { value: 1, pixKey: BIA, splitType: 'SPLIT_SUB_ACCOUNT' }]);
    expect(made.status).toBe(200);
    const id = made.json['correlationID'] as string;
    const expected = [{ value: 3_333, pixKey: ANA, splitType: 'SPLIT_SUB_ACCOUNT' }, { value: 1, pixKey: BIA, splitType: 'SPLIT_SUB_ACCOUNT' }];
    expect(made.json['charge'].splits).toEqual(expected);
    expect((await call('GET', `/charge/${id}`)).json['charge'].splits).toEqual(expected);
    expect((await ctl('POST', `/__control/charges/${id}/pay`, { account: APP_ID })).status).toBe(200);
    expect(await balanceOf(ANA)).toBe(ana + 3_333);
    expect(await balanceOf(BIA)).toBe(bia + 1);
    expect(await mainBalance()).toBe(main + 10_000 - 100 - 3_334);
    expect((await call('GET', `/charge/${id}`)).json['charge'].status).toBe('COMPLETED');
    expect((await ctl('POST', `/__control/charges/${id}/refund`, { value: 5_000 })).status).toBe(200);
    expect(await balanceOf(ANA)).toBe(ana + 3_333);
    expect(await mainBalance()).toBe(main + 10_000 - 100 - 3_334 - 5_000);
  });

  it('withdraws the whole balance to the subaccount key, keeps it for the control route, refuses a zero balance', async () => {
    const before = await balanceOf(ANA);
    expect(before).toBeGreaterThan(0);
    const made = await call('POST', `/subaccount/${encodeURIComponent(ANA)}/withdraw`);
    expect(made).toEqual({ status: 200, json: { transaction: { status: 'CREATED', value: before, correlationID: expect.any(String), destinationAlias: ANA, comment: 'Saque integral da subconta' } } });
    expect(await balanceOf(ANA)).toBe(0);
    expect(await call('POST', `/subaccount/${encodeURIComponent(ANA)}/withdraw`)).toEqual({ status: 400, json: { error: 'Subconta sem saldo para saque' } });
    const kept = await ctl('GET', `/__control/subaccounts/${encodeURIComponent(ANA)}/withdrawals?account=${APP_ID}`);
    expect(kept.json['withdrawals']).toEqual([{ correlationID: made.json['transaction'].correlationID, value: before, destinationAlias: ANA, status: 'CREATED', time: expect.any(String) }]);
    expect((await call('POST', '/subaccount/ninguem%40exemplo.com/withdraw')).json).toEqual({ error: 'Subconta não encontrada' });
  });
});
