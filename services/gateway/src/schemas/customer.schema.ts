import { parseTaxId } from '@orquestra/platform';
import { z } from './zod-openapi';

/** The refusal of a CPF/CNPJ whose check digits do not hold (or whose length fits neither), naming the field. */
export const TAX_ID_INVALID = (param: string): string =>
  `CPF ou CNPJ inválido em ${param}: confira os dígitos verificadores. ` +
  'Informe 11 dígitos (CPF) ou 14 caracteres (CNPJ, inclusive o alfanumérico); pontos, traço e barra são aceitos.';

const SEPARATORS = /[.\-/\s]/g;
const digitsOf = (value: string): string => value.replace(SEPARATORS, '');

export const AddressSchema = z
  .object({
    street: z.string().trim().min(1).max(200).openapi({ example: 'Avenida Paulista' }),
    number: z.string().trim().min(1).max(20).openapi({ example: '1578' }),
    neighborhood: z.string().trim().min(1).max(100).openapi({ example: 'Bela Vista' }),
    city: z.string().trim().min(1).max(100).openapi({ example: 'São Paulo' }),
    state: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/)
      .transform((value) => value.toUpperCase())
      .openapi({ description: 'UF, 2 letras.', example: 'SP' }),
    zip: z
      .string()
      .trim()
      .max(10)
      .refine((value) => /^\d{8}$/.test(digitsOf(value)), {
        message: 'O campo customer.address.zip deve ser um CEP com 8 dígitos, por exemplo 01310-100.',
      })
      .transform(digitsOf)
      .openapi({ description: 'CEP, 8 dígitos (traço aceito; guardado só com dígitos).', example: '01310-100' }),
    complement: z.string().trim().max(100).optional().openapi({ example: 'Conjunto 12' }),
  })
  .strict()
  .openapi('Address', { description: 'Endereço do cliente; necessário para boleto.' });

export const CustomerSchema = z
  .object({
    name: z.string().trim().min(1).max(200).openapi({ example: 'Maria da Silva' }),
    email: z.string().trim().max(254).email().optional().openapi({ example: 'maria@exemplo.com.br' }),
    document: z
      .string()
      .trim()
      .max(20)
      .transform((value, ctx) => {
        const taxId = parseTaxId(value);
        if (taxId) return taxId.value;
        ctx.addIssue({ code: 'custom', message: TAX_ID_INVALID('customer.document') });
        return z.NEVER;
      })
      .optional()
      .openapi({
        description:
          'CPF (11 dígitos) ou CNPJ (14 caracteres, inclusive o CNPJ alfanumérico), conferido pelos dígitos verificadores; ' +
          'pontuação aceita e removida, letras guardadas em maiúsculas.',
        example: '529.982.247-25',
      }),
    phone: z
      .string()
      .trim()
      .regex(/^\+?[0-9()\-.\s]{8,25}$/)
      .optional()
      .openapi({ example: '+55 11 91234-5678' }),
    address: AddressSchema.optional(),
    ip: z
      .string()
      .trim()
      .ip()
      .optional()
      .openapi({ description: 'IP do comprador; quando ausente, o IP de quem chama a API.', example: '177.10.20.30' }),
  })
  .strict()
  .openapi('CustomerInput', { description: 'O comprador. Só o nome é obrigatório.' });

export type CustomerInput = z.output<typeof CustomerSchema>;
