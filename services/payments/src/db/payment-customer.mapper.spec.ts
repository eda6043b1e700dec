import { toPaymentCustomerDoc, toProtoPaymentCustomer } from './payment-customer.mapper';
import type { PaymentCustomerDoc } from './payment.model';

const ADDRESS = { street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310200' };

describe('payment customer: gRPC ⇄ stored', () => {
  it('stores what was not given as empty, as every stored payment has it', () => {
    expect(toPaymentCustomerDoc({ name: 'Ana', address: ADDRESS })).toStrictEqual({
      name: 'Ana',
      email: '',
      document: '',
      phone: '',
      address: { ...ADDRESS, complement: '' },
      ip: '',
    });
    expect(toPaymentCustomerDoc({ name: 'Ana' }).address).toBeNull();
    expect(toPaymentCustomerDoc(undefined)).toStrictEqual({ name: '', email: '', document: '', phone: '', address: null, ip: '' });
  });

  it('answers stored empties as absent, so no hop after it sees a placeholder', () => {
    const stored: PaymentCustomerDoc = { name: 'Ana', email: '', document: '12345678909', phone: '', address: { ...ADDRESS, complement: '' }, ip: '177.1.2.3' };
    expect(toProtoPaymentCustomer(stored)).toStrictEqual({ name: 'Ana', document: '12345678909', address: ADDRESS, ip: '177.1.2.3' });
  });

  it('reads an address without a street as never given', () => {
    const stored: PaymentCustomerDoc = { name: 'Ana', email: '', document: '', phone: '', address: { ...ADDRESS, street: '', complement: '' }, ip: '' };
    expect(toProtoPaymentCustomer(stored)).toStrictEqual({ name: 'Ana' });
  });

  it('round-trips a customer given in full', () => {
    const given = { name: 'Ana', email: 'ana@x.com', document: '12345678909', phone: '+55 11 90000-0000', address: { ...ADDRESS, complement: 'Conjunto 12' }, ip: '177.1.2.3' };
    expect(toProtoPaymentCustomer(toPaymentCustomerDoc(given))).toStrictEqual(given);
  });
});
