import { missingRequirement } from './subaccount-requirements';
import type { SubaccountRequirement } from './provider-subaccounts';

const ASAAS_LIKE: SubaccountRequirement[] = [
  { field: 'email' },
  { field: 'birthdate', onlyFor: 'individual' },
  { field: 'company.company_type', onlyFor: 'company' },
  { field: 'address.zip' },
];

describe('missingRequirement', () => {
  const complete = { name: 'Ana Lima', document: '52998224725', email: 'ana@exemplo.com', birthdate: '1990-05-01', address: { zip: '01310100' } };

  it('answers null when every requirement for the type is present', () => {
    expect(missingRequirement(ASAAS_LIKE, complete, 'individual', 'Asaas')).toBeNull();
  });

  it('names the field, the provider, the type and what to send', () => {
    const { birthdate: _birthdate, ...body } = complete;
    expect(missingRequirement(ASAAS_LIKE, body, 'individual', 'Asaas')).toEqual({
      field: 'birthdate',
      message: 'O provedor desta conta (Asaas) exige birthdate para subcontas de pessoa física: informe birthdate no formato AAAA-MM-DD.',
    });
  });

  it('skips requirements only for the other type', () => {
    const { birthdate: _birthdate, ...body } = complete;
    expect(missingRequirement(ASAAS_LIKE, { ...body, company: { company_type: 'LIMITED' } }, 'company', 'Asaas')).toBeNull();
    expect(missingRequirement(ASAAS_LIKE, complete, 'company', 'Asaas')).toMatchObject({ field: 'company.company_type', message: expect.stringContaining('pessoa jurídica') });
  });

  it('follows dotted paths and counts null, blank strings and a missing parent as absent', () => {
    for (const address of [undefined, null, {}, { zip: null }, { zip: '  ' }, 'text']) {
      expect(missingRequirement(ASAAS_LIKE, { ...complete, address }, 'individual', 'Asaas')).toEqual({
        field: 'address.zip',
        message: 'O provedor desta conta (Asaas) exige address.zip para subcontas: informe address.zip com os 8 dígitos do CEP.',
      });
    }
  });

  it('answers the first missing field in table order', () => {
    expect(missingRequirement(ASAAS_LIKE, { name: 'Ana' }, 'individual', 'Asaas')?.field).toBe('email');
  });

  it('takes a present object and zero as given', () => {
    const table: SubaccountRequirement[] = [{ field: 'bank_account' }, { field: 'monthly_income' }];
    expect(missingRequirement(table, { bank_account: { bank: '001' }, monthly_income: 0 }, 'individual', 'Pagar.me')).toBeNull();
    expect(missingRequirement(table, { monthly_income: 0 }, 'individual', 'Pagar.me')?.message).toBe(
      'O provedor desta conta (Pagar.me) exige bank_account para subcontas: informe bank_account com bank (3 dígitos), branch, account, account_digit, type (checking ou savings) e holder_name, no mesmo CPF/CNPJ da subconta.',
    );
  });

  it('has no wording to add for a field without a hint', () => {
    expect(missingRequirement([{ field: 'occupation' }], {}, 'individual', 'Asaas')?.message).toBe('O provedor desta conta (Asaas) exige occupation para subcontas: informe occupation.');
  });
});
