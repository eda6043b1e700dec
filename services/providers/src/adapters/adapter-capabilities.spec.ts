import { capabilitiesOf, type AdapterClass } from './adapter-capabilities';
import type { ProviderAdapter } from './provider-adapter';
import type { SubaccountRequirement } from './provider-subaccounts';

// Classes standing for adapters: only their prototype's methods and statics are read.
function adapterClass(methods: string[], statics: { subaccountRequirements?: SubaccountRequirement[] } = {}): AdapterClass {
  const prototype = Object.fromEntries(methods.map((name) => [name, () => undefined])) as unknown as ProviderAdapter;
  return { methods: ['pix'], prototype, ...statics };
}

describe('capabilitiesOf: subaccounts', () => {
  const requirements: SubaccountRequirement[] = [{ field: 'email' }, { field: 'birthdate', onlyFor: 'individual' }, { field: 'company.company_type', onlyFor: 'company' }];

  it('is supported with the class table, type-qualified entries spelled "field (type)"', () => {
    const adapter = adapterClass(['createSubaccount', 'getSubaccount', 'getSubaccountBalance'], { subaccountRequirements: requirements });
    expect(capabilitiesOf(adapter).subaccounts).toEqual({ supported: true, requires: ['email', 'birthdate (individual)', 'company.company_type (company)'] });
  });

  it('is supported with nothing required when the class declares no table', () => {
    expect(capabilitiesOf(adapterClass(['createSubaccount', 'getSubaccount', 'getSubaccountBalance'])).subaccounts).toEqual({ supported: true, requires: [] });
  });

  it('is unsupported, requiring nothing, when a SubaccountCapable method is missing', () => {
    const adapter = adapterClass(['createSubaccount', 'getSubaccount'], { subaccountRequirements: requirements });
    expect(capabilitiesOf(adapter).subaccounts).toEqual({ supported: false, requires: [] });
  });
});
