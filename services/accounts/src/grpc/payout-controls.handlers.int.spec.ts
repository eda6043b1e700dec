import { accounts, common } from '@orquestra/contracts';
import { connectDatabase, ensureIndexes, hasPrefix, type Handlers } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, uniqueDbPrefix } from '@orquestra/platform/testing';
import type { Connection } from 'mongoose';
import pino from 'pino';
import { registerAccountsModels, type AccountsModels } from '../db/accounts.models';
import { accountsHandlers } from './accounts.handlers';

jest.setTimeout(60_000);

const { MODE_TEST: TEST, MODE_LIVE: LIVE, MODE_UNSPECIFIED: UNSPECIFIED } = common.Mode;

describe('payout controls against the real store', () => {
  let db: Connection;
  let models: AccountsModels;
  let rpc: Handlers<typeof accounts.AccountsServiceService>;
  let merchant: string;
  let other: string;
  const ctx = {} as never;

  beforeAll(async () => {
    const infra = await ensureTestInfra();
    db = await connectDatabase({ url: infra.mongoUrl, dbName: `${uniqueDbPrefix('payoutctl')}accounts`, logger: pino({ level: 'silent' }) });
    models = registerAccountsModels(db);
    await ensureIndexes(db);
    rpc = accountsHandlers(models);
    merchant = (await rpc.createMerchant({ name: 'Loja', email: 'loja@payout.test' }, ctx)).merchant!.id;
    other = (await rpc.createMerchant({ name: 'Outra', email: 'outra@payout.test' }, ctx)).merchant!.id;
  });
  afterAll(async () => {
    await dropTestDatabase(db);
  });

  const settings = async (merchant_id: string, mode: common.Mode) => (await rpc.getPayoutSettings({ merchant_id, mode }, ctx)).settings;
  const set = async (request: Partial<accounts.SetPayoutSettingsRequest>) =>
    (await rpc.setPayoutSettings({ merchant_id: merchant, mode: TEST, ...request }, ctx)).settings;

  describe('settings', () => {
    it('answer the defaults before the owner sets anything: off, R$ 10.000,00 a day, no updated_at', async () => {
      expect(await settings(merchant, LIVE)).toEqual({ api_enabled: false, daily_limit: 1_000_000, updated_at: '' });
      expect(await models.payoutSettings.countDocuments()).toBe(0);
    });

    it('change only the fields given, per mode, and a first limit leaves payouts off', async () => {
      const limited = await set({ daily_limit: 250_000 });
      expect(limited).toMatchObject({ api_enabled: false, daily_limit: 250_000 });
      expect(Date.parse(limited!.updated_at)).not.toBeNaN();
      expect(await set({ api_enabled: true })).toMatchObject({ api_enabled: true, daily_limit: 250_000 });
      expect(await settings(merchant, TEST)).toMatchObject({ api_enabled: true, daily_limit: 250_000 });
      expect(await settings(merchant, LIVE)).toMatchObject({ api_enabled: false, daily_limit: 1_000_000 });
      expect(await settings(other, TEST)).toMatchObject({ api_enabled: false, daily_limit: 1_000_000 });
      expect(await set({ api_enabled: false })).toMatchObject({ api_enabled: false, daily_limit: 250_000 });
    });

    it('end as one document when many first writes race', async () => {
      const merchant_id = (await rpc.createMerchant({ name: 'Corrida', email: 'race@payout.test' }, ctx)).merchant!.id;
      await Promise.all(Array.from({ length: 10 }, (_, i) => rpc.setPayoutSettings({ merchant_id, mode: TEST, daily_limit: 100 + i }, ctx)));
      expect(await models.payoutSettings.countDocuments({ merchant_id })).toBe(1);
      expect(await settings(merchant_id, TEST)).toMatchObject({ api_enabled: false });
    });

    it('refuse nothing to change, a bad limit, no mode and an unknown merchant, in Portuguese with param', async () => {
      await expect(set({})).rejects.toMatchObject({ code: 'parameter_missing', param: 'api_enabled' });
      await expect(set({ daily_limit: 0 })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'daily_limit', message: expect.stringContaining('centavos') });
      await expect(set({ mode: UNSPECIFIED, api_enabled: true })).rejects.toMatchObject({ code: 'parameter_missing', param: 'mode' });
      await expect(set({ merchant_id: 'acct_nope', api_enabled: true })).rejects.toMatchObject({ code: 'not_found', param: 'merchant_id' });
      await expect(settings('acct_nope', TEST)).rejects.toMatchObject({ code: 'not_found', param: 'merchant_id' });
      expect(await models.payoutSettings.countDocuments({ merchant_id: 'acct_nope' })).toBe(0);
    });
  });

  describe('destinations', () => {
    const create = async (request: Partial<accounts.CreatePayoutDestinationRequest>) =>
      (await rpc.createPayoutDestination({ merchant_id: merchant, mode: TEST, key_type: 'email', key: 'fin@loja.com', label: 'Conta da empresa', ...request }, ctx)).destination!;
    const list = async (merchant_id: string, mode: common.Mode) => (await rpc.listPayoutDestinations({ merchant_id, mode }, ctx)).destinations;

    it('save a normalized key with a pdest_ id, and read it back whole', async () => {
      const saved = await create({ key_type: 'phone', key: '+55 (11) 98765-4321', label: ' Celular do financeiro ' });
      expect(hasPrefix(saved.id, 'payoutDestination')).toBe(true);
      expect(saved.id).toMatch(/^pdest_[0-9a-z]{26}$/);
      expect(saved).toMatchObject({ mode: TEST, key_type: 'phone', key: '+5511987654321', label: 'Celular do financeiro' });
      const read = await rpc.getPayoutDestination({ merchant_id: merchant, mode: TEST, destination_id: saved.id }, ctx);
      expect(read.destination).toEqual(saved);
    });

    it('answer the saved one when the same key is saved again, however it is written', async () => {
      const first = await create({ key_type: 'cpf', key: '529.982.247-25', label: 'Sócio' });
      const again = await create({ key_type: 'cpf', key: '52998224725', label: 'Outro nome' });
      expect(again).toEqual(first);
      const raced = await Promise.all(Array.from({ length: 5 }, () => create({ key_type: 'evp', key: '123e4567-e89b-12d3-a456-426614174000', label: 'Aleatória' })));
      expect(new Set(raced.map((d) => d.id)).size).toBe(1);
      expect(await models.payoutDestinations.countDocuments({ merchant_id: merchant, key: '52998224725' })).toBe(1);
    });

    it('list newest first, only the merchant and mode asked', async () => {
      const live = await (async () => (await rpc.createPayoutDestination({ merchant_id: merchant, mode: LIVE, key_type: 'cnpj', key: '11.222.333/0001-81', label: 'Empresa' }, ctx)).destination!)();
      const mine = await list(merchant, TEST);
      expect(mine.map((d) => d.key_type)).toEqual(['evp', 'cpf', 'phone']);
      expect(mine.every((d) => d.mode === TEST)).toBe(true);
      expect((await list(merchant, LIVE)).map((d) => d.id)).toEqual([live.id]);
      expect(await list(other, TEST)).toEqual([]);
    });

    it('find nothing across merchants or modes: not_found with param destination_id', async () => {
      const [saved] = await list(merchant, TEST);
      const get = (merchant_id: string, mode: common.Mode, destination_id: string) => rpc.getPayoutDestination({ merchant_id, mode, destination_id }, ctx);
      await expect(get(other, TEST, saved!.id)).rejects.toMatchObject({ code: 'not_found', param: 'destination_id' });
      await expect(get(merchant, LIVE, saved!.id)).rejects.toMatchObject({ code: 'not_found', param: 'destination_id' });
      await expect(get(merchant, TEST, '')).rejects.toMatchObject({ code: 'not_found', param: 'destination_id' });
      await expect(get(merchant, TEST, 'pdest_01jxyz')).rejects.toMatchObject({ code: 'not_found', param: 'destination_id', message: expect.stringContaining('Chave Pix') });
    });

    it('refuse a bad key, type or label, or an unknown merchant, and save nothing', async () => {
      const before = await models.payoutDestinations.countDocuments();
      await expect(create({ key_type: 'iban' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'key_type' });
      await expect(create({ key_type: 'cpf', key: '123.456.789-00' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'key' });
      await expect(create({ key_type: 'phone', key: '+1 415 555 0100' })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'key' });
      await expect(create({ label: 'x'.repeat(61) })).rejects.toMatchObject({ code: 'parameter_invalid', param: 'label' });
      await expect(create({ mode: UNSPECIFIED })).rejects.toMatchObject({ code: 'parameter_missing', param: 'mode' });
      await expect(create({ merchant_id: 'acct_nope' })).rejects.toMatchObject({ code: 'not_found', param: 'merchant_id' });
      expect(await models.payoutDestinations.countDocuments()).toBe(before);
    });
  });
});
