import { buildRecipientRequest, mapRecipientStatus, toSubaccount } from './pagarme.subaccounts';
import type { CreateSubaccountInput } from '../provider-subaccounts';
import { PagarmeAdapter, WEBHOOK_EVENTS } from './pagarme.adapter';

const ADDRESS = { street: 'Av. Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'sp', zip: '01310-100' };
const ANA: CreateSubaccountInput = {
  subaccountId: 'sub_01',
  type: 'individual',
  name: 'Ana Lima',
  document: '52998224725',
  email: 'ana@exemplo.com',
  phone: '11988451155',
  birthdate: '1990-05-16',
  occupation: 'Artesã',
  monthlyIncome: 500_000,
  address: ADDRESS,
  bankAccount: { bank: '001', branch: '1234', account: '12345678', accountDigit: '9', type: 'savings', holderName: 'Ana Lima' },
  transferInterval: 'weekly',
};

describe('Pagar.me recipient request', () => {
  it('maps an individual: our id as code, bank account of the same document, register information', () => {
    expect(buildRecipientRequest(ANA)).toEqual({
      name: 'Ana Lima',
      email: 'ana@exemplo.com',
      document: '52998224725',
      type: 'individual',
      code: 'sub_01',
      default_bank_account: { holder_name: 'Ana Lima', holder_type: 'individual', holder_document: '52998224725', bank: '001', branch_number: '1234', account_number: '12345678', account_check_digit: '9', type: 'savings' },
      transfer_settings: { transfer_enabled: true, transfer_interval: 'Weekly', transfer_day: 1 },
      register_information: {
        type: 'individual',
        name: 'Ana Lima',
        email: 'ana@exemplo.com',
        document: '52998224725',
        birthdate: '16/05/1990',
        monthly_income: 500_000,
        professional_occupation: 'Artesã',
        phone_numbers: [{ ddd: '11', number: '988451155', type: 'mobile' }],
        address: { street: 'Av. Paulista', street_number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip_code: '01310100' },
      },
    });
  });

  it('leaves automatic transfers off without an interval', () => {
    const { transferInterval: _interval, ...input } = ANA;
    expect(buildRecipientRequest(input).transfer_settings).toEqual({ transfer_enabled: false, transfer_interval: 'Daily', transfer_day: 0 });
  });

  it.each([
    ['email', { email: undefined }],
    ['bank_account', { bankAccount: undefined }],
    ['birthdate', { birthdate: undefined }],
    ['monthly_income', { monthlyIncome: undefined }],
    ['occupation', { occupation: undefined }],
    ['phone', { phone: '123' }],
    ['address', { address: undefined }],
  ])('refuses an individual without %s, naming it in pt-BR', (param, change) => {
    expect(() => buildRecipientRequest({ ...ANA, ...change } as CreateSubaccountInput)).toThrow(expect.objectContaining({ kind: 'rejected', param: { name: param, publicMessage: expect.stringContaining('Pagar.me') } }));
  });

  it.each([
    ['company.trading_name', { company: { annualRevenue: 1, foundingDate: '2015-03-01' } }],
    ['company.annual_revenue', { company: { tradingName: 'Loja', foundingDate: '2015-03-01' } }],
    ['company.founding_date', { company: { tradingName: 'Loja', annualRevenue: 1 } }],
    ['partner', { company: { tradingName: 'Loja', annualRevenue: 1, foundingDate: '2015-03-01' } }],
  ])('refuses a company without %s', (param, change) => {
    expect(() => buildRecipientRequest({ ...ANA, type: 'company', document: '11222333000181', ...change })).toThrow(expect.objectContaining({ param: expect.objectContaining({ name: param }) }));
  });
});

describe('Pagar.me recipient status', () => {
  it.each([
    ['registration', 'pending'],
    ['affiliation', 'pending'],
    ['active', 'active'],
    ['refused', 'refused'],
    ['suspended', 'blocked'],
    ['blocked', 'blocked'],
    ['inactive', 'inactive'],
    ['under_review', 'pending'],
  ])('%s → %s', (providerStatus, status) => {
    expect(mapRecipientStatus({ id: 'rp_1', email: 'a@b.c', status: providerStatus })).toMatchObject({ status, statusDetail: expect.stringContaining('Pagar.me') });
  });

  it('says why a recipient was refused, and masks its bank account', () => {
    const subaccount = toSubaccount({ id: 'rp_1', email: 'a@b.c', status: 'refused', kyc_details: { status: 'denied', status_reason: 'selfie não confere' }, default_bank_account: { bank: '341', branch_number: '0001', account_number: '98765', account_check_digit: '0' } });
    expect(subaccount).toEqual({ providerSubaccountId: 'rp_1', splitTarget: 'rp_1', status: 'refused', statusDetail: 'Recusado pela Pagar.me: selfie não confere.', providerStatus: 'refused', details: { login_email: 'a@b.c', bank_account: '341 ag. 0001 cc ***65-0' } });
  });
});

describe('Pagar.me recipient.updated (parseSubaccountWebhook)', () => {
  const adapter = new PagarmeAdapter({ baseUrl: 'https://api.pagar.me/core/v5', credentials: { secret_key: 'sk_test_abc123' }, webhookUrl: 'https://hooks.example/w?hmac=whsec_1', webhookSecret: 'whsec_1', settings: {}, timeoutMs: 1_000 });
  afterAll(() => adapter.close());
  const deliver = (body: unknown, hmac = 'whsec_1') => adapter.parseSubaccountWebhook({ subPath: '', query: { hmac }, headers: {}, rawBody: Buffer.from(JSON.stringify(body)) });

  it('is among the events set up next to our URL', () => {
    expect(WEBHOOK_EVENTS).toContain('recipient.updated');
  });

  it('names the recipient and our subaccount id from its code', () => {
    expect(deliver({ id: 'hook_1', type: 'recipient.updated', data: { id: 'rp_1', code: 'sub_1', status: 'active' } })).toEqual({
      ok: true,
      eventKey: 'pagarme:hook_1',
      subaccounts: [{ providerSubaccountId: 'rp_1', subaccountId: 'sub_1' }],
    });
    expect(deliver({ id: 'hook_2', type: 'recipient.updated', data: { id: 'rp_2', code: '' } })).toEqual({ ok: true, eventKey: 'pagarme:hook_2', subaccounts: [{ providerSubaccountId: 'rp_2' }] });
  });

  it('names nothing for a charge event, calls a recipient without id malformed, and refuses a wrong secret first', () => {
    expect(deliver({ id: 'hook_3', type: 'charge.paid', data: { id: 'ch_1' } })).toEqual({ ok: true, eventKey: 'pagarme:hook_3', subaccounts: [] });
    expect(deliver({ id: 'hook_4', type: 'recipient.updated', data: { code: 'sub_1' } })).toEqual({ ok: false, reason: 'malformed', httpStatus: 400 });
    expect(deliver({ id: 'hook_1', type: 'recipient.updated', data: { id: 'rp_1' } }, 'whsec_2')).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
  });
});
