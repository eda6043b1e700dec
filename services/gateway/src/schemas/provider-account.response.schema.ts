import { PaymentMethodSchema } from './create-payment.schema';
import { z } from './zod-openapi';

// A connected provider account as the public API shows it. The spec leaves its fields open (§2
// "Gaps"); these are the ones the providers service exposes. Credentials never come back: only the
// last 4 characters of each field, as the providers service gives them.

export const BREAKER_STATES = ['closed', 'open', 'half_open'] as const;

export const BreakerStateSchema = z.enum(BREAKER_STATES).openapi('BreakerState', {
  description: 'Disjuntor da conta: open = falhas recentes, a conta vai para o fim da fila até se recuperar (half_open: em teste).',
});

export const FeeSchema = z
  .object({
    method: PaymentMethodSchema,
    percentage: z.number().openapi({ description: 'Porcentagem (0.99 = 0,99%).', example: 0.99 }),
    fixed: z.number().int().openapi({ description: 'Parte fixa em centavos.', example: 0 }),
  })
  .openapi('Fee');

const ProviderAccountShape = z
  .object({
    id: z.string().openapi({ example: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('provider_account'),
    mode: z.enum(['test', 'live']),
    provider: z.string().openapi({ example: 'efi' }),
    name: z.string().openapi({ example: 'Efí principal' }),
    priority: z.number().int().openapi({ description: 'Número menor é tentado primeiro.', example: 10 }),
    enabled: z.boolean(),
    methods: z.array(z.string()).openapi({ description: 'Métodos que a conta aceita.', example: ['pix'] }),
    customer_requires: z
      .record(z.string(), z.array(z.string()))
      .openapi({ description: 'Dados do cliente exigidos por método.', example: { boleto: ['document', 'address'] } }),
    fees: z.array(FeeSchema),
    credentials_last4: z
      .record(z.string(), z.string())
      .openapi({ description: 'Os 4 últimos caracteres de cada credencial; as credenciais nunca são devolvidas.', example: { client_id: 'c123', client_secret: 'x789' } }),
    breaker_state: BreakerStateSchema,
    keeps_metadata: z.boolean().openapi({ description: 'true: o provedor guarda a metadata do pagamento.' }),
    webhook_url: z
      .string()
      .nullable()
      .openapi({ description: 'Só quando webhook_manual_setup é true: cole este endereço no painel do provedor (contém um segredo).' }),
    webhook_manual_setup: z.boolean(),
    created_at: z.string().openapi({ example: '2026-10-01T12:00:00.000Z' }),
    updated_at: z.string(),
  });

const ACCOUNT_EXAMPLE: z.infer<typeof ProviderAccountShape> = {
  id: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4',
  object: 'provider_account',
  mode: 'test',
  provider: 'efi',
  name: 'Efí principal',
  priority: 10,
  enabled: true,
  methods: ['pix'],
  customer_requires: { pix: [] },
  fees: [{ method: 'pix', percentage: 0.99, fixed: 0 }],
  credentials_last4: { client_id: 'c123', client_secret: 'x789', certificate: '----', pix_key: '.br' },
  breaker_state: 'closed',
  keeps_metadata: true,
  webhook_url: null,
  webhook_manual_setup: false,
  created_at: '2026-10-01T12:00:00.000Z',
  updated_at: '2026-10-01T12:00:00.000Z',
};

export const ProviderAccountSchema = ProviderAccountShape.openapi('ProviderAccount', { example: ACCOUNT_EXAMPLE });


export const ProviderAccountListSchema = z
  .object({ object: z.literal('list'), data: z.array(ProviderAccountSchema), has_more: z.literal(false) })
  .openapi('ProviderAccountList', { example: { object: 'list', data: [ACCOUNT_EXAMPLE], has_more: false } });

export type ProviderAccountJson = z.infer<typeof ProviderAccountSchema>;
export type ProviderAccountListJson = z.infer<typeof ProviderAccountListSchema>;
export type FeeJson = z.infer<typeof FeeSchema>;
