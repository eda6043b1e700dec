/**
 * POST /api/v1/charge body rules. Woovi documents `correlationID` and `value` (integer cents) as
 * required and `comment` (≤ 140), `customer{name, taxID, email, phone}`, `expiresIn` (seconds),
 * `additionalInfo[{key, value}]` as optional; other documented fields (splits, subaccount,
 * interests, …) are accepted and ignored. Limits Woovi does not document (correlationID length,
 * additionalInfo size) are the emulator's own, generous ones.
 */
import { z } from 'zod';
import { wooviErrors } from './woovi-errors';

export const DEFAULT_EXPIRES_IN_SECONDS = 86_400;

function checkDigit(digits: number[], firstWeight: number, cycle: boolean): number {
  let weight = firstWeight;
  let sum = 0;
  for (const digit of digits) {
    sum += digit * weight;
    weight = weight === 2 && cycle ? 9 : weight - 1;
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

/** 'BR:CPF' | 'BR:CNPJ' for a valid document (digits only), else undefined. */
export function taxIdType(digits: string): 'BR:CPF' | 'BR:CNPJ' | undefined {
  const d = [...digits].map(Number);
  if (/^\d{11}$/.test(digits) && !/^(\d)\1{10}$/.test(digits)) {
    return checkDigit(d.slice(0, 9), 10, false) === d[9] && checkDigit(d.slice(0, 10), 11, false) === d[10] ? 'BR:CPF' : undefined;
  }
  if (/^\d{14}$/.test(digits) && !/^(\d)\1{13}$/.test(digits)) {
    return checkDigit(d.slice(0, 12), 5, true) === d[12] && checkDigit(d.slice(0, 13), 6, true) === d[13] ? 'BR:CNPJ' : undefined;
  }
  return undefined;
}

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
