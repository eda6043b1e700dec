import { z } from './zod-openapi';

// GET /v1/providers: the catalog of supported providers (§4 "Other endpoints"), as the providers
// service describes it. Typed here so the mapper and the OpenAPI document cannot drift apart.

export const CredentialFieldSchema = z
  .object({
    name: z.string().openapi({ description: 'Nome do campo em credentials ao conectar.', example: 'client_id' }),
    label: z.string().openapi({ description: 'Como o painel do provedor chama o campo.', example: 'Client ID' }),
    secret: z.boolean().openapi({ description: 'true: valor sigiloso (só os 4 últimos caracteres são mostrados depois).' }),
  })
  .openapi('CredentialField');

export const ProviderCapabilitiesSchema = z
  .object({
    methods: z.array(z.string()).openapi({ description: 'Métodos que o provedor aceita (pix, card, boleto).', example: ['pix'] }),
    partial_refunds: z.boolean(),
    disputes: z.boolean(),
    dispute_evidence: z.boolean(),
    subaccounts: z.object({
      supported: z.boolean(),
      requires: z.array(z.string()).openapi({ description: 'Campos que o provedor exige ao criar uma subconta.' }),
    }),
    max_splits: z.number().int().openapi({ description: 'Quantas divisões (splits) um pagamento pode ter neste provedor (0: não aceita).', example: 20 }),
    payouts: z.boolean(),
    payout_destinations: z
      .array(z.string())
      .openapi({ description: 'Para onde os repasses pela API podem ir: a conta bancária cadastrada no provedor (account) ou chaves Pix salvas (pix_key). Vazio sem repasses.', example: ['pix_key'] }),
    subscriptions: z.boolean(),
    card_vault: z.boolean(),
    keeps_metadata: z.boolean().openapi({ description: 'true: o provedor guarda a metadata do pagamento do lado dele.' }),
    customer_requires: z
      .record(z.string(), z.array(z.string()))
      .openapi({ description: 'Dados do cliente exigidos por método (document, email, phone, address).', example: { boleto: ['document', 'address'] } }),
    hosted_checkout: z.array(z.string()).openapi({
      description: 'Métodos cujos dados o provedor coleta na própria página hospedada (cartão sem card.token: next_action.type = redirect).',
      example: ['card'],
    }),
  })
  .openapi('ProviderCapabilities');

export const ProviderSchema = z
  .object({
    code: z.string().openapi({ description: 'Código usado em provider ao conectar uma conta.', example: 'efi' }),
    object: z.literal('provider'),
    name: z.string().openapi({ example: 'Efí' }),
    credential_fields: z.array(CredentialFieldSchema),
    capabilities: ProviderCapabilitiesSchema,
    amount_unit: z.string().openapi({ description: 'Como o provedor expressa valores (a API sempre usa centavos).', example: 'reais_string' }),
    notes: z.string().nullable(),
  })
  .openapi('Provider');

export const ProviderListSchema = z
  .object({ object: z.literal('list'), data: z.array(ProviderSchema), has_more: z.literal(false) })
  .openapi('ProviderList', {
    example: {
      object: 'list',
      data: [
        {
          code: 'efi',
          object: 'provider',
          name: 'Efí (API Pix do Banco Central)',
          credential_fields: [
            { name: 'client_id', label: 'Client ID', secret: false },
            { name: 'client_secret', label: 'Client Secret', secret: true },
            { name: 'certificate', label: 'Certificado (PEM com certificado e chave privada)', secret: true },
            { name: 'pix_key', label: 'Chave Pix da conta', secret: false },
          ],
          capabilities: {
            methods: ['pix'],
            partial_refunds: true,
            disputes: true,
            dispute_evidence: true,
            subaccounts: { supported: false, requires: [] },
            max_splits: 0,
            payouts: false,
            subscriptions: false,
            card_vault: false,
            keeps_metadata: true,
            customer_requires: { pix: [] },
            hosted_checkout: [],
            payout_destinations: [],
          },
          amount_unit: 'reais_string',
          notes: 'OAuth2 com mTLS (certificado da conta). Valores em reais como texto ("19.90"). Metadata vai em infoAdicionais.',
        },
      ],
      has_more: false,
    },
  });

export type ProviderJson = z.infer<typeof ProviderSchema>;
export type ProviderListJson = z.infer<typeof ProviderListSchema>;
