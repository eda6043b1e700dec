import { stringifyExact } from './asaas.json';
import { buildAccountRequest, mapAccountStatus, type AsaasAccountStatus } from './asaas.subaccounts';
import type { CreateSubaccountInput } from '../provider-subaccounts';
import { AsaasAdapter } from './asaas.adapter';
import { WEBHOOK_EVENTS } from './asaas.webhook';

const ANA: CreateSubaccountInput = {
  subaccountId: 'sub_01',
  type: 'individual',
  name: 'Ana Lima',
  document: '529.982.247-25',
  email: 'ana@exemplo.com',
  phone: '+55 (11) 98845-1155',
  birthdate: '1990-05-16',
  monthlyIncome: 512_345,
  address: { street: 'Av. Paulista', number: '1000', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-100', complement: 'sala 2' },
};

const status = (general: AsaasAccountStatus['general'], parts: Partial<AsaasAccountStatus> = {}): AsaasAccountStatus => ({
  id: 'acc_1',
  commercialInfo: 'APPROVED',
  bankAccountInfo: 'APPROVED',
  documentation: 'APPROVED',
  general,
  ...parts,
});

describe('Asaas subaccount request', () => {
  it('maps an individual to /v3/accounts: digits, reais exactly, our id as externalReference', () => {
    expect(JSON.parse(stringifyExact(buildAccountRequest(ANA)))).toEqual({
      name: 'Ana Lima',
      email: 'ana@exemplo.com',
      cpfCnpj: '52998224725',
      birthDate: '1990-05-16',
      mobilePhone: '11988451155',
      incomeValue: 5123.45,
      address: 'Av. Paulista',
      addressNumber: '1000',
      complement: 'sala 2',
      province: 'Bela Vista',
      postalCode: '01310100',
      externalReference: 'sub_01',
    });
  });

  it('sends companyType, not birthDate, for a company', () => {
    const request = buildAccountRequest({ ...ANA, type: 'company', document: '11222333000181', company: { companyType: 'MEI' } });
    expect(request).toMatchObject({ companyType: 'MEI', cpfCnpj: '11222333000181' });
    expect(request).not.toHaveProperty('birthDate');
  });

  it.each([
    ['document', { document: '52998224724' }],
    ['email', { email: undefined }],
    ['phone', { phone: '1234' }],
    ['birthdate', { birthdate: undefined }],
    ['monthly_income', { monthlyIncome: undefined }],
    ['address', { address: undefined }],
  ])('refuses without %s, naming it in pt-BR', (param, change) => {
    expect(() => buildAccountRequest({ ...ANA, ...change } as CreateSubaccountInput)).toThrow(expect.objectContaining({ kind: 'rejected', param: { name: param, publicMessage: expect.stringMatching(/Asaas|CPF/) } }));
  });
});

describe('Asaas account status', () => {
  it('is active when general is APPROVED, refused when REJECTED (naming what was rejected)', () => {
    expect(mapAccountStatus(status('APPROVED'))).toEqual({ status: 'active', statusDetail: 'Conta aprovada pelo Asaas.' });
    expect(mapAccountStatus(status('REJECTED', { documentation: 'REJECTED' }))).toEqual({ status: 'refused', statusDetail: 'Conta reprovada pelo Asaas (documentos reprovados).' });
  });

  it('is pending otherwise, saying what is missing and what is under review', () => {
    expect(mapAccountStatus(status('AWAITING_APPROVAL'))).toEqual({ status: 'pending', statusDetail: 'Cadastro completo, em análise pelo Asaas.' });
    expect(mapAccountStatus(status('PENDING', { documentation: 'PENDING', bankAccountInfo: 'PENDING', commercialInfo: 'AWAITING_APPROVAL' }))).toEqual({
      status: 'pending',
      statusDetail: 'Cadastro em andamento no Asaas (pendente de envio: documentos, conta bancária; em análise: dados comerciais).',
    });
  });

  it('does not guess an unknown general status', () => {
    expect(() => mapAccountStatus(status('SUSPENDED' as AsaasAccountStatus['general']))).toThrow(expect.objectContaining({ kind: 'not_created' }));
  });
});

describe('Asaas ACCOUNT_STATUS_* webhooks (parseSubaccountWebhook)', () => {
  const adapter = new AsaasAdapter({ baseUrl: 'https://api-sandbox.asaas.com/v3', credentials: { api_key: 'k' }, webhookUrl: 'https://hooks.example/w', webhookSecret: 'unused', signingSecret: 'token-1', settings: {}, timeoutMs: 1_000 });
  afterAll(() => adapter.close());
  const deliver = (body: unknown, token = 'token-1') => adapter.parseSubaccountWebhook({ subPath: '', query: {}, headers: { 'asaas-access-token': token }, rawBody: Buffer.from(JSON.stringify(body)) });
  const status = { id: 'acc_1', commercialInfo: 'APPROVED', bankAccountInfo: 'APPROVED', documentation: 'APPROVED', general: 'APPROVED' };

  it('subscribes the root account to the general approval events', () => {
    expect(WEBHOOK_EVENTS).toEqual(expect.arrayContaining(['ACCOUNT_STATUS_GENERAL_APPROVAL_APPROVED', 'ACCOUNT_STATUS_GENERAL_APPROVAL_REJECTED']));
  });

  it('names the subaccount by accountStatus.id (the event carries no reference of ours)', () => {
    expect(deliver({ id: 'evt_1', event: 'ACCOUNT_STATUS_GENERAL_APPROVAL_APPROVED', dateCreated: '2026-11-24 10:00:00', accountStatus: status })).toEqual({
      ok: true,
      eventKey: 'asaas:evt_1',
      subaccounts: [{ providerSubaccountId: 'acc_1' }],
    });
    // The payment parser reads the same delivery as naming no charge.
    expect(adapter.parseWebhook({ subPath: '', query: {}, headers: { 'asaas-access-token': 'token-1' }, rawBody: Buffer.from(JSON.stringify({ id: 'evt_1', event: 'ACCOUNT_STATUS_GENERAL_APPROVAL_REJECTED', accountStatus: status })) })).toEqual({
      ok: true,
      providerPaymentIds: [],
      eventKey: 'asaas:evt_1',
    });
  });

  it('names nothing for a payment event, calls an account event without the account malformed, and refuses a wrong token first', () => {
    expect(deliver({ id: 'evt_2', event: 'PAYMENT_RECEIVED', payment: { id: 'pay_1' } })).toEqual({ ok: true, eventKey: 'asaas:evt_2', subaccounts: [] });
    expect(deliver({ id: 'evt_3', event: 'ACCOUNT_STATUS_GENERAL_APPROVAL_REJECTED', accountStatus: {} })).toEqual({ ok: false, reason: 'malformed', httpStatus: 400 });
    expect(deliver({ id: 'evt_1', event: 'ACCOUNT_STATUS_GENERAL_APPROVAL_APPROVED', accountStatus: status }, 'token-2')).toEqual({ ok: false, reason: 'unauthenticated', httpStatus: 401 });
  });
});
