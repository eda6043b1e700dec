import { stringifyExact } from './asaas.json';
import { buildAccountRequest, mapAccountStatus, type AsaasAccountStatus } from './asaas.subaccounts';
import type { CreateSubaccountInput } from '../provider-subaccounts';

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
