import { customerFromProto, customerToProto, type common } from '@orquestra/contracts';
import type { PaymentCustomerDoc } from './payment.model';

// Stored payments keep "not given" as '' (every payment stored so far has it so), so this
// boundary is the one place that turns '' into absent and back; every hop after it carries the
// contracts' customer, whose fields have presence.
const given = (value: string): string | undefined => value || undefined;

/** The gRPC customer (CreatePayment) → the payment's stored buyer. */
export function toPaymentCustomerDoc(customer: common.Customer | undefined): PaymentCustomerDoc {
  const fields = customer ? customerFromProto(customer) : {};
  return {
    name: fields.name ?? '',
    email: fields.email ?? '',
    document: fields.document ?? '',
    phone: fields.phone ?? '',
    address: fields.address ? { ...fields.address, complement: fields.address.complement ?? '' } : null,
    ip: fields.ip ?? '',
  };
}

/** The payment's stored buyer → the gRPC customer (the payment as answered, routing, providers). */
export function toProtoPaymentCustomer(doc: PaymentCustomerDoc): common.Customer {
  const address = doc.address;
  return customerToProto({
    name: given(doc.name),
    email: given(doc.email),
    document: given(doc.document),
    phone: given(doc.phone),
    // An address is stored only when given, complete; one without a street was never given.
    address: address?.street
      ? {
          street: address.street,
          number: address.number,
          neighborhood: address.neighborhood,
          city: address.city,
          state: address.state,
          zip: address.zip,
          complement: given(address.complement),
        }
      : undefined,
    ip: given(doc.ip),
  });
}
