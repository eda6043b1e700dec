import type { common } from '@orquestra/contracts';
import type { PaymentDoc } from '../db/payment.model';

/** The buyer's customer data as routing and providers take it. */
export function customerOf(doc: PaymentDoc): common.Customer {
  const address = doc.customer.address;
  return {
    name: doc.customer.name,
    email: doc.customer.email,
    document: doc.customer.document,
    phone: doc.customer.phone,
    ip: doc.customer.ip,
    ...(address && address.street
      ? {
          address: {
            street: address.street ?? '',
            number: address.number ?? '',
            neighborhood: address.neighborhood ?? '',
            city: address.city ?? '',
            state: address.state ?? '',
            zip: address.zip ?? '',
            complement: address.complement ?? '',
          },
        }
      : {}),
  };
}
