/**
 * POST /api/v1/charge body rules. Woovi documents `correlationID` and `value` (integer cents) as
 * required and `comment` (≤ 140), `customer{name, taxID, email, phone}`, `expiresIn` (seconds),
 * `additionalInfo[{key, value}]` as optional; `splits` is checked against the account's subaccounts
 * by splits.ts; other documented fields (subaccount, interests, …) are accepted and ignored. Limits Woovi does not document (correlationID length,
 * additionalInfo size) are the emulator's own, generous ones.
 */
import { z } from 'zod';
import { taxIdType } from '../../kit';
import { wooviErrors } from './woovi-errors';

export const DEFAULT_EXPIRES_IN_SECONDS = 86_400;

const customerSchema = z
  .object({
    name: z.string().trim().min(1, 'customer.name é obrigatório'),
    taxID: z.string().optional(),
    email: z.string().email('customer.email inválido').optional(),
    phone: z.string().regex(/^\+?\d{10,14}$/, 'customer.phone inválido').optional(),
  })
  .passthrough()
  .refine((c) => c.taxID !== undefined || c.email !== undefined || c.phone !== undefined, 'customer precisa de taxID, email ou phone');

const chargeSchema = z
  .object({
    correlationID: z.string({ required_error: 'correlationID é obrigatório' }).min(1).max(300),
    value: z.number({ required_error: 'value é obrigatório' }).int('value deve ser um inteiro em centavos').positive('value deve ser maior que zero'),
    comment: z.string().max(140, 'comment deve ter no máximo 140 caracteres').optional(),
    expiresIn: z.number().int().positive('expiresIn deve ser positivo').optional(),
    customer: customerSchema.optional(),
    additionalInfo: z.array(z.object({ key: z.string().min(1).max(300), value: z.string().max(1000) })).max(100).optional(),
  })
  .passthrough();

export interface ChargeRequest {
  correlationID: string;
  value: number;
  comment: string;
  expiresIn: number;
  customer?: { name: string; taxID?: { taxID: string; type: 'BR:CPF' | 'BR:CNPJ' }; email?: string; phone?: string };
  additionalInfo: { key: string; value: string }[];
}

/** The validated request, or a thrown 400 `{error}`. */
export function parseChargeRequest(body: unknown): ChargeRequest {
  const parsed = chargeSchema.safeParse(body);
  if (!parsed.success) throw wooviErrors.invalid(parsed.error.issues[0]?.message ?? 'Requisição inválida');
  const { correlationID, value, comment, expiresIn, customer, additionalInfo } = parsed.data;
  let taxID: { taxID: string; type: 'BR:CPF' | 'BR:CNPJ' } | undefined;
  if (customer?.taxID !== undefined) {
    const digits = customer.taxID.replace(/\D/g, '');
    const type = taxIdType(digits);
    if (!type) throw wooviErrors.invalid('customer.taxID inválido: informe um CPF ou CNPJ válido');
    taxID = { taxID: digits, type };
  }
  return {
    correlationID,
    value,
    comment: comment ?? '',
    expiresIn: expiresIn ?? DEFAULT_EXPIRES_IN_SECONDS,
    ...(customer
      ? {
          customer: {
            name: customer.name,
            ...(taxID ? { taxID } : {}),
            ...(customer.email ? { email: customer.email } : {}),
            ...(customer.phone ? { phone: customer.phone } : {}),
          },
        }
      : {}),
    additionalInfo: additionalInfo ?? [],
  };
}
