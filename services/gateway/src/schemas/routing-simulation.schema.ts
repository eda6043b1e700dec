import type { FieldHints } from '../validation/field-hints.pt-br';
import { MAX_AMOUNT, PaymentMethodSchema } from './create-payment.schema';
import { CustomerSchema } from './customer.schema';
import { MetadataSchema } from './metadata.schema';
import { z } from './zod-openapi';

/**
 * The customer of a simulation: the same fields as a payment's customer, all optional, so a
 * payment body's customer can be pasted as is. Only the presence of document, email, phone and
 * address matters to routing.
 */
export const SimulationCustomerSchema = z
  .object({
    name: CustomerSchema.shape.name.optional(),
    email: CustomerSchema.shape.email,
    document: CustomerSchema.shape.document,
    phone: CustomerSchema.shape.phone,
    address: CustomerSchema.shape.address,
    ip: CustomerSchema.shape.ip,
  })
  .strict()
  .openapi('SimulationCustomer', {
    description: 'Dados do cliente que o pagamento teria. Importa só a presença de document, email, phone e address (contas que os exigem).',
    example: { document: '529.982.247-25', email: 'maria@exemplo.com.br' },
  });

export const SimulateRoutingSchema = z
  .object({
    method: PaymentMethodSchema,
    amount: z.number().int().min(1).max(MAX_AMOUNT).openapi({ description: 'Valor em centavos.', example: 1990 }),
    metadata: MetadataSchema.optional(),
    customer: SimulationCustomerSchema.optional(),
  })
  .strict()
  .openapi('SimulateRouting', {
    example: { method: 'pix', amount: 1990, metadata: { product: 'curso' }, customer: { document: '52998224725' } },
  });

export type SimulateRoutingInput = z.output<typeof SimulateRoutingSchema>;

/** What to do about the simulation's fields where they differ from a payment's. */
export const SIMULATE_ROUTING_HINTS: FieldHints = {
  method: 'Use pix, card ou boleto.',
  customer: 'Informe o cliente como objeto com document, email, phone e/ou address, como no pagamento.',
};
