import { parseTaxId } from '@orquestra/platform';
import { MetadataSchema } from './metadata.schema';
import { z } from './zod-openapi';

// Shapes and types only: which fields the connected account's provider requires (400 naming the
// missing one), the account's state and the provider's own refusal are the payouts service's.

/** §4: a subaccount's metadata holds at most 20 keys (a payment's holds 50). */
export const SUBACCOUNT_METADATA_MAX_KEYS = 20;

const PUNCTUATION = /[.\-/\s]/g;

const SubaccountMetadataSchema = MetadataSchema.refine((metadata) => Object.keys(metadata).length <= SUBACCOUNT_METADATA_MAX_KEYS, {
  message: `O campo metadata de uma subconta aceita no máximo ${SUBACCOUNT_METADATA_MAX_KEYS} chaves. Remova as chaves excedentes.`,
}).openapi({ description: `Pares chave-valor de texto (até ${SUBACCOUNT_METADATA_MAX_KEYS} chaves), guardados só no serviço.` });

/** A CPF or CNPJ (alphanumeric CNPJ included) by its check digits; stored without punctuation, letters upper case. */
const taxIdOf = (param: string) =>
  z
    .string()
    .trim()
    .max(20)
    .transform((value, ctx) => {
      const taxId = parseTaxId(value);
      if (taxId) return taxId.value;
      ctx.addIssue({
        code: 'custom',
        message:
          `O campo ${param} deve ser um CPF ou CNPJ válido (os dígitos verificadores não conferem ou o tamanho está errado). ` +
          'Informe 11 dígitos (CPF) ou 14 caracteres (CNPJ, inclusive o alfanumérico); pontos, traço e barra são aceitos.',
      });
      return z.NEVER;
    })
    .openapi({
      description: 'CPF ou CNPJ (inclusive o CNPJ alfanumérico) com dígitos verificadores válidos; pontuação aceita e removida.',
      example: '529.982.247-25',
    });

const DateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .refine((value) => !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value))
  .openapi({ description: 'Data no formato AAAA-MM-DD.', example: '1990-05-17' });

const CentsSchema = z.number().int().min(0).max(1_000_000_000_000);

export const SubaccountAddressSchema = z
  .object({
    zip: z
      .string()
      .trim()
      .max(10)
      .refine((value) => /^\d{8}$/.test(value.replace(PUNCTUATION, '')))
      .transform((value) => value.replace(PUNCTUATION, ''))
      .openapi({ description: 'CEP, 8 dígitos (traço aceito; guardado só com dígitos).', example: '01310-100' }),
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
    complement: z.string().trim().max(100).optional().openapi({ example: 'Conjunto 12' }),
  })
  .strict()
  .openapi('SubaccountAddress', { description: 'Endereço completo; só o complemento é opcional.' });

/** The fields of a person: the subaccount's holder (top level) or a company's administrator partner. */
const personShape = (prefix: string) => ({
  name: z.string().trim().min(1).max(200).openapi({ example: 'Ana Souza' }),
  document: taxIdOf(`${prefix}document`),
  email: z.string().trim().max(254).email().optional().openapi({ example: 'ana@loja.com.br' }),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9()\-.\s]{8,25}$/)
    .optional()
    .openapi({ example: '+55 11 91234-5678' }),
  birthdate: DateSchema.optional(),
  mother_name: z.string().trim().min(1).max(200).optional(),
  occupation: z.string().trim().min(1).max(100).optional(),
  monthly_income: CentsSchema.optional().openapi({ description: 'Renda mensal em centavos.', example: 500000 }),
  address: SubaccountAddressSchema.optional(),
});

export const SubaccountPartnerSchema = z
  .object(personShape('partner.'))
  .strict()
  .openapi('SubaccountPartner', { description: 'Sócio administrador de uma empresa: os mesmos campos de uma pessoa.' });

export const SubaccountBankAccountSchema = z
  .object({
    bank: z.string().regex(/^\d{3}$/).openapi({ description: 'Código do banco, 3 dígitos.', example: '341' }),
    branch: z.string().regex(/^\d{1,5}$/).openapi({ description: 'Agência, sem dígito.', example: '0001' }),
    branch_digit: z.string().regex(/^[0-9Xx]{0,2}$/).optional(),
    account: z.string().regex(/^\d{1,20}$/).openapi({ description: 'Conta, sem dígito.', example: '123456' }),
    account_digit: z.string().regex(/^[0-9Xx]{0,2}$/).optional().openapi({ example: '7' }),
    type: z.enum(['checking', 'savings']).optional().openapi({ description: 'checking (corrente) ou savings (poupança).' }),
    holder_name: z.string().trim().min(1).max(200).optional(),
  })
  .strict()
  .openapi('SubaccountBankAccount', { description: 'Conta bancária do mesmo CPF/CNPJ da subconta.' });

export const SubaccountPixKeySchema = z
  .object({
    key_type: z.enum(['cpf', 'cnpj', 'email', 'phone', 'random']),
    key: z.string().trim().min(1).max(100).openapi({ example: 'ana@loja.com.br' }),
  })
  .strict()
  .openapi('SubaccountPixKey', { description: 'Chave Pix da subconta, destino dos seus saques.' });

export const SubaccountCompanySchema = z
  .object({
    trading_name: z.string().trim().min(1).max(200).optional().openapi({ example: 'Loja da Ana' }),
    company_type: z
      .string()
      .trim()
      .min(1)
      .max(40)
      .optional()
      .openapi({ description: 'Valor do provedor, por exemplo MEI, LIMITED, INDIVIDUAL, ASSOCIATION ou LTDA.', example: 'MEI' }),
    founding_date: DateSchema.optional(),
    annual_revenue: CentsSchema.optional().openapi({ description: 'Faturamento anual em centavos.', example: 12000000 }),
  })
  .strict()
  .openapi('SubaccountCompany');

export const CreateSubaccountSchema = z
  .object({
    provider_account_id: z
      .string()
      .min(1)
      .max(100)
      .openapi({ description: 'A conta de provedor conectada onde a subconta é criada (pa_…).', example: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    ...personShape(''),
    type: z.enum(['individual', 'company']).optional().openapi({ description: 'Quando omitido, vem do documento: CPF individual, CNPJ company.' }),
    bank_account: SubaccountBankAccountSchema.optional(),
    pix_key: SubaccountPixKeySchema.optional(),
    company: SubaccountCompanySchema.optional(),
    partner: SubaccountPartnerSchema.optional(),
    transfer_interval: z.enum(['daily', 'weekly', 'monthly']).optional().openapi({ description: 'Transferência automática, em um provedor.' }),
    metadata: SubaccountMetadataSchema.optional(),
  })
  .strict()
  .openapi('CreateSubaccount', {
    description: 'Os campos que cada provedor exige estão em GET /v1/providers, em capabilities.subaccounts.requires.',
    example: {
      provider_account_id: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4',
      name: 'Ana Souza',
      document: '529.982.247-25',
      email: 'ana@loja.com.br',
      phone: '+55 11 91234-5678',
      birthdate: '1990-05-17',
      monthly_income: 500000,
      address: { zip: '01310-100', street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP' },
      pix_key: { key_type: 'email', key: 'ana@loja.com.br' },
    },
  });

export type CreateSubaccountInput = z.output<typeof CreateSubaccountSchema>;
export type SubaccountPersonFields = z.output<typeof SubaccountPartnerSchema>;

export const UpdateSubaccountSchema = z
  .object({
    name: z.string().trim().min(1).max(200).optional().openapi({ example: 'Ana Souza ME' }),
    metadata: SubaccountMetadataSchema.optional().openapi({ description: 'Substitui a metadata inteira; uma chave com valor vazio é removida.' }),
  })
  .strict()
  .refine((body) => body.name !== undefined || body.metadata !== undefined, {
    message: 'Envie name ou metadata: só esses campos de uma subconta mudam por aqui.',
    params: { code: 'parameter_missing' },
  })
  .openapi('UpdateSubaccount', { description: 'Só name e metadata, e só no serviço (o provedor não é alterado).' });

export type UpdateSubaccountInput = z.output<typeof UpdateSubaccountSchema>;

const personHints = (prefix: string) => ({
  [`${prefix}name`]: 'Informe o nome completo (ou a razão social).',
  [`${prefix}document`]: 'Informe o CPF ou o CNPJ (inclusive o alfanumérico); pontos, traço e barra são aceitos.',
  [`${prefix}email`]: 'Informe um e-mail válido, por exemplo ana@loja.com.br.',
  [`${prefix}phone`]: 'Informe o telefone com DDD, por exemplo +55 11 91234-5678.',
  [`${prefix}birthdate`]: 'Informe a data de nascimento no formato AAAA-MM-DD, por exemplo 1990-05-17.',
  [`${prefix}mother_name`]: 'Informe o nome da mãe.',
  [`${prefix}occupation`]: 'Informe a profissão.',
  [`${prefix}monthly_income`]: 'Informe a renda mensal em centavos como número inteiro (500000 para R$ 5.000,00).',
  [`${prefix}address`]: 'Informe o endereço com zip, street, number, neighborhood, city, state e, se houver, complement.',
  [`${prefix}address.zip`]: 'Informe o CEP com 8 dígitos, por exemplo 01310-100.',
  [`${prefix}address.street`]: 'Informe o logradouro.',
  [`${prefix}address.number`]: 'Informe o número (ou S/N).',
  [`${prefix}address.neighborhood`]: 'Informe o bairro.',
  [`${prefix}address.city`]: 'Informe a cidade.',
  [`${prefix}address.state`]: 'Informe a sigla da UF com 2 letras, por exemplo SP.',
  [`${prefix}address.complement`]: 'Informe o complemento com até 100 caracteres ou omita o campo.',
});

/** What to do about this operation's fields (they win over the payment hints of the same name). */
export const SUBACCOUNT_FIELD_HINTS = {
  provider_account_id: 'Informe a conta de provedor conectada onde a subconta será criada (pa_…), de GET /v1/provider-accounts.',
  ...personHints(''),
  ...personHints('partner.'),
  partner: 'Informe o sócio administrador como objeto, com os mesmos campos de uma pessoa (name, document, …).',
  type: 'Use individual ou company, ou omita o campo para decidir pelo documento.',
  bank_account: 'Informe a conta bancária como objeto, com bank, branch, account e, se houver, os dígitos.',
  'bank_account.bank': 'Informe o código do banco com 3 dígitos, por exemplo 341.',
  'bank_account.branch': 'Informe a agência com até 5 dígitos, sem o dígito verificador.',
  'bank_account.branch_digit': 'Informe o dígito da agência (até 2 caracteres, números ou X) ou omita o campo.',
  'bank_account.account': 'Informe o número da conta com até 20 dígitos, sem o dígito verificador.',
  'bank_account.account_digit': 'Informe o dígito da conta (até 2 caracteres, números ou X) ou omita o campo.',
  'bank_account.holder_name': 'Informe o nome do titular da conta.',
  pix_key: 'Informe a chave Pix como objeto: {"key_type": "email", "key": "ana@loja.com.br"}.',
  'pix_key.key': 'Informe a chave Pix, até 100 caracteres.',
  company: 'Informe os dados da empresa como objeto, com trading_name, company_type, founding_date e annual_revenue.',
  'company.trading_name': 'Informe o nome fantasia.',
  'company.company_type': 'Informe o tipo de empresa aceito pelo provedor, por exemplo MEI ou LTDA.',
  'company.founding_date': 'Informe a data de abertura no formato AAAA-MM-DD.',
  'company.annual_revenue': 'Informe o faturamento anual em centavos como número inteiro.',
  metadata: `Metadata de uma subconta aceita até ${SUBACCOUNT_METADATA_MAX_KEYS} chaves de até 40 caracteres, com valores de texto de até 500 caracteres.`,
  status: 'Use um destes status: pending, active, refused, blocked ou inactive.',
  q: 'Informe um trecho do nome, do documento ou do e-mail, com até 100 caracteres.',
  'Idempotency-Key': 'Envie uma chave de até 255 caracteres visíveis, única por subconta (por exemplo um UUID), ou omita o cabeçalho.',
} as const;

/** `Idempotency-Key` of a subaccount: optional, printable ASCII, at most 255 characters. */
export const SubaccountIdempotencyHeadersSchema = z.object({
  'Idempotency-Key': z
    .string()
    .min(1)
    .max(255)
    .regex(/^[\x21-\x7E]+$/)
    .optional()
    .openapi({ description: 'Repetir a mesma chave com o mesmo corpo devolve a mesma subconta, nunca uma segunda.', example: 'vendedor-42' }),
});
