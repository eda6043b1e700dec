import { Customer } from '../generated/orquestra/common/v1/common';
import { customerFromProto, customerToProto, toPublicCustomer, type CustomerFields } from './customer.public';

const ADDRESS = { street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310200' };
const EVERY: CustomerFields = {
  name: 'Maria da Silva',
  email: 'maria@exemplo.com.br',
  document: '52998224725',
  phone: '+55 11 91234-5678',
  address: { ...ADDRESS, complement: 'Conjunto 12' },
  ip: '177.10.20.30',
};

describe('customer ⇄ proto Customer', () => {
  it('round-trips every field, through the wire too', () => {
    const wire = Customer.decode(Customer.encode(customerToProto(EVERY)).finish());
    expect(customerFromProto(wire)).toStrictEqual(EVERY);
  });

  it('keeps what was not given absent, on the wire and back (never an empty string)', () => {
    const wire = Customer.decode(Customer.encode(customerToProto({ document: '52998224725', address: ADDRESS })).finish());
    expect(customerFromProto(wire)).toStrictEqual({ document: '52998224725', address: ADDRESS });
  });

  it('carries an empty string given as such, distinct from absent', () => {
    const wire = Customer.decode(Customer.encode(customerToProto({ name: 'Ana', address: { ...ADDRESS, complement: '' } })).finish());
    expect(wire.address).toStrictEqual({ ...ADDRESS, complement: '' });
  });

  it('takes no field the contract does not name', () => {
    const extra = { ...EVERY, password: 'x', address: { ...ADDRESS, floor: '3' } } as CustomerFields;
    expect(customerToProto(extra)).toStrictEqual({ ...EVERY, address: ADDRESS });
  });
});

describe('toPublicCustomer', () => {
  it('shows every given field and the customer record, never the IP', () => {
    expect(toPublicCustomer(customerToProto(EVERY), 'cus_1')).toStrictEqual({
      id: 'cus_1',
      name: 'Maria da Silva',
      email: 'maria@exemplo.com.br',
      document: '52998224725',
      phone: '+55 11 91234-5678',
      address: { ...ADDRESS, complement: 'Conjunto 12' },
    });
  });

  it('shows what was not given as null', () => {
    expect(toPublicCustomer({ name: 'Ana', address: ADDRESS }, '')).toStrictEqual({
      id: null,
      name: 'Ana',
      email: null,
      document: null,
      phone: null,
      address: { ...ADDRESS, complement: null },
    });
    expect(toPublicCustomer({ name: 'Ana' }, '')?.address).toBeNull();
    expect(toPublicCustomer(undefined, '')).toBeNull();
  });
});
