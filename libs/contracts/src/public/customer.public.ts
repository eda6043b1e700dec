import type { Address, Customer } from '../generated/orquestra/common/v1/common';
import { present, type EveryField } from '../presence';

/**
 * The buyer as the API takes it (spec §2 Customer; a routing simulation's customer may omit the
 * name): the one shape every hop carries. The gRPC message has the same fields with the same
 * presence (proto3 `optional`), so the converters below only copy; they list every field so that
 * a field added on either side fails to compile until it is carried.
 */
export interface CustomerFields {
  name?: string;
  email?: string;
  document?: string;
  phone?: string;
  address?: AddressFields;
  ip?: string;
}

/** An address is complete when given (the API refuses a partial one); only the complement may be absent. */
export interface AddressFields {
  street: string;
  number: string;
  neighborhood: string;
  city: string;
  state: string;
  zip: string;
  complement?: string;
}

function addressToProto(address: AddressFields): Address {
  const every: EveryField<Address> = {
    street: address.street,
    number: address.number,
    neighborhood: address.neighborhood,
    city: address.city,
    state: address.state,
    zip: address.zip,
    complement: address.complement,
  };
  return present(every);
}

function addressFromProto(address: Address): AddressFields {
  const every: EveryField<AddressFields> = {
    street: address.street,
    number: address.number,
    neighborhood: address.neighborhood,
    city: address.city,
    state: address.state,
    zip: address.zip,
    complement: address.complement,
  };
  return present(every);
}

/** The API's customer → the gRPC message. */
export function customerToProto(customer: CustomerFields): Customer {
  const every: EveryField<Customer> = {
    name: customer.name,
    email: customer.email,
    document: customer.document,
    phone: customer.phone,
    address: customer.address && addressToProto(customer.address),
    ip: customer.ip,
  };
  return present(every);
}

/** The gRPC message → the API's customer (what payments stores and an adapter takes). */
export function customerFromProto(customer: Customer): CustomerFields {
  const every: EveryField<CustomerFields> = {
    name: customer.name,
    email: customer.email,
    document: customer.document,
    phone: customer.phone,
    address: customer.address && addressFromProto(customer.address),
    ip: customer.ip,
  };
  return present(every);
}

/**
 * The customer of the public payment object (spec §2): every field, null when not given, plus the
 * customer record's id. The one definition of that shape: the gateway answers with it and events
 * carry it. The buyer's IP is not shown.
 */
export function toPublicCustomer(customer: Customer | undefined, customerId: string) {
  if (!customer) return null;
  const address = customer.address;
  return {
    id: customerId || null,
    name: customer.name ?? null,
    email: customer.email ?? null,
    document: customer.document ?? null,
    phone: customer.phone ?? null,
    address: address
      ? {
          street: address.street,
          number: address.number,
          neighborhood: address.neighborhood,
          city: address.city,
          state: address.state,
          zip: address.zip,
          complement: address.complement ?? null,
        }
      : null,
  };
}

export type PublicCustomer = NonNullable<ReturnType<typeof toPublicCustomer>>;
