import { z } from './zod-openapi';

// The public payout (spec §2 Payout) as `toPublicPayout` (@orquestra/contracts) builds it, plus the
// balances and saved Pix keys of §4 "Balances and payouts".

/** A payout's status; pending → processing → paid, or failed/canceled (the payouts service's transitions). */
export const PAYOUT_STATUSES = ['pending', 'processing', 'paid', 'failed', 'canceled'] as const;

export const PayoutStatusSchema = z.enum(PAYOUT_STATUSES).openapi('PayoutStatus', {
  description: 'pending até o provedor aceitar; processing enquanto o dinheiro está a caminho; paid, failed e canceled são finais.',
});

/** Pix key types of a saved destination (evp = chave aleatória). */
export const PIX_KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'evp'] as const;

export const PixKeyTypeSchema = z.enum(PIX_KEY_TYPES).openapi('PixKeyType', { description: 'Tipo da chave Pix; evp é a chave aleatória.' });

const pixKeyFields = {
  destination_id: z.string().openapi({ description: 'A chave salva (pdest_…).', example: 'pdest_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
  key_type: PixKeyTypeSchema,
  key: z.string().openapi({ description: 'A chave mascarada: o bastante para reconhecê-la, nunca inteira.', example: 'fi********@loja.com.br' }),
  label: z.string().openapi({ description: 'Nome que o dono deu à chave.', example: 'Conta da empresa' }),
};

export const PayoutPixKeyDestinationSchema = z
  .object({ type: z.literal('pix_key'), ...pixKeyFields })
  .openapi('PayoutPixKeyDestination', { description: 'Uma chave Pix salva pelo dono da conta.' });

export const PayoutAccountDestinationSchema = z
  .object({
    type: z.enum(['account', 'subaccount']).openapi({
      description: 'account: a conta bancária cadastrada no provedor; subaccount: a conta da subconta (saques de subcontas).',
    }),
  })
  .openapi('PayoutAccountDestination');

export const PayoutSchema = z
  .object({
    id: z.string().openapi({ example: 'po_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('payout'),
    mode: z.enum(['test', 'live']),
    status: PayoutStatusSchema,
    amount: z.number().int().openapi({
      description: 'Centavos. Num saque em que o provedor retira o saldo inteiro (whole_balance), o valor que saiu de fato.',
      example: 15000,
    }),
    amount_requested: z.number().int().optional().openapi({ description: 'Só nos saques de subcontas: o valor pedido, em centavos.', example: 15000 }),
    whole_balance: z.boolean().optional().openapi({
      description: 'Só nos saques de subcontas: true quando o provedor retirou o saldo inteiro em vez do valor pedido (amount é o que saiu).',
    }),
    fee: z.number().int().nullable().openapi({ description: 'Tarifa do provedor em centavos, quando ele a informa.' }),
    currency: z.literal('BRL'),
    provider: z.string().openapi({ example: 'asaas' }),
    provider_account_id: z.string().openapi({ example: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    subaccount_id: z.string().optional().openapi({ description: 'Presente só nos saques de subcontas.' }),
    destination: z.union([PayoutPixKeyDestinationSchema, PayoutAccountDestinationSchema]),
    uncertain: z.boolean().openapi({
      description:
        'true quando o provedor ainda não confirmou o repasse: não crie outro, o serviço continua consultando (ou use POST /v1/payouts/{id}/sync).',
    }),
    description: z.string().nullable(),
    metadata: z.record(z.string(), z.string()),
    failure_code: z.string().nullable().openapi({ description: 'Por exemplo insufficient_balance ou payout_refused.' }),
    failure_reason: z.string().nullable().openapi({ description: 'Em português.' }),
    paid_at: z.string().nullable().openapi({ description: 'ISO 8601.' }),
    created_at: z.string().openapi({ description: 'ISO 8601.', example: '2026-10-01T12:00:00.000Z' }),
    updated_at: z.string(),
  })
  .openapi('Payout');

export const PayoutListSchema = z
  .object({ object: z.literal('list'), data: z.array(PayoutSchema), has_more: z.boolean() })
  .openapi('PayoutList');

/** Where a payout may go; only type pix_key is listed (the registered account needs no entry). */
export const PayoutDestinationSchema = z
  .object({ type: z.literal('pix_key'), ...pixKeyFields })
  .openapi('PayoutDestination', { description: 'Uma chave Pix salva pelo dono da conta (só ele cadastra chaves, no painel).' });

export const PayoutDestinationListSchema = z
  .object({ object: z.literal('list'), data: z.array(PayoutDestinationSchema) })
  .openapi('PayoutDestinationList');

export const PAYOUT_DESTINATION_TYPES = ['account', 'pix_key'] as const;

export const BalanceSchema = z
  .object({
    provider_account_id: z.string().openapi({ example: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    provider: z.string().openapi({ example: 'asaas' }),
    name: z.string().openapi({ description: 'Nome da conta conectada.', example: 'Asaas principal' }),
    available: z.number().int().nullable().openapi({ description: 'Centavos disponíveis para repasse agora; null quando o saldo não pôde ser lido (veja error).', example: 125000 }),
    pending: z.number().int().nullable().openapi({ description: 'Centavos ainda a liberar, quando o provedor informa; senão null.', example: 30000 }),
    currency: z.literal('BRL'),
    as_of: z.string().nullable().openapi({ description: 'Quando o provedor calculou o saldo (ISO 8601); null sem saldo.' }),
    payouts_supported: z.boolean().openapi({ description: 'O provedor desta conta faz repasses pela API.' }),
    destination_types: z
      .array(z.enum(PAYOUT_DESTINATION_TYPES))
      .openapi({ description: 'Os tipos de destination aceitos em POST /v1/payouts por esta conta.' }),
    error: z.string().nullable().openapi({ description: 'Em português, quando o saldo não pôde ser lido agora; senão null.' }),
  })
  .openapi('Balance', { description: 'O saldo de uma conta de provedor ativa neste modo.' });

export const BalanceListSchema = z
  .object({
    object: z.literal('list'),
    data: z.array(BalanceSchema),
    payouts_api_enabled: z.boolean().openapi({ description: 'O dono da conta ligou os repasses pela API neste modo (sem isso POST /v1/payouts responde 403 payouts_api_disabled).' }),
  })
  .openapi('BalanceList');

export type PayoutJson = z.infer<typeof PayoutSchema>;
export type PayoutListJson = z.infer<typeof PayoutListSchema>;
export type PayoutDestinationListJson = z.infer<typeof PayoutDestinationListSchema>;
export type BalanceListJson = z.infer<typeof BalanceListSchema>;
