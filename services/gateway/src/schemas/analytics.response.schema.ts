import { z } from './zod-openapi';

// The public analytics overview (docs/analytics.md), as mappers/analytics.mapper.ts builds it from
// the payments service's answer. Money in cents; counts of payments, each counted on the São
// Paulo day it was created.

const cents = (description: string, example: number) => z.number().int().openapi({ description, example });
const count = (description: string, example: number) => z.number().int().min(0).openapi({ description, example });

/** The figures every line of the overview carries (totals, per provider account, per method, per day). */
export const analyticsFiguresShape = {
  gross: cents('Valor dos pagamentos aprovados (succeeded, partially_refunded, refunded), em centavos.', 129_900),
  refunded: cents('Valor reembolsado desses pagamentos, em centavos.', 9_990),
  fees: cents('Tarifas dos provedores sobre os pagamentos aprovados, em centavos.', 1_299),
  net: cents('gross − refunded − fees, em centavos.', 118_611),
  created: count('Pagamentos criados no período (todos os status).', 48),
  approved: count('Pagamentos aprovados: succeeded, partially_refunded ou refunded.', 30),
  refused: count('Pagamentos recusados (failed).', 4),
  canceled: count('Pagamentos cancelados, inclusive Pix e boletos expirados; não entram na taxa de aprovação.', 6),
  pending: count('Pagamentos ainda em aberto (requires_method, pending, processing).', 8),
  approval_rate: z.number().min(0).max(1).nullable().openapi({
    description: 'approved / (approved + refused), de 0 a 1; null quando nada foi aprovado nem recusado.',
    example: 0.8824,
  }),
};

export const ANALYTICS_METHODS = ['pix', 'boleto', 'card'] as const;

// A union with null (not `.nullable()` on the enum): OpenAPI 3.1 would render `type: [string,
// null]` with an enum lacking null, which refuses the very null it allows.
const methodField = z.union([z.enum(ANALYTICS_METHODS), z.null()]).openapi({
  description: 'pix, boleto ou card; null para pagamentos criados sem método que nunca foram cobrados.',
  example: 'pix',
});

export const AnalyticsFiguresSchema = z.object(analyticsFiguresShape).openapi('AnalyticsFigures');

export const AnalyticsMethodFiguresSchema = z.object({ method: methodField, ...analyticsFiguresShape }).openapi('AnalyticsMethodFigures');

export const AnalyticsProviderFiguresSchema = z
  .object({
    provider_account_id: z.string().nullable().openapi({
      description: 'A conta de provedor que cobrou; null para pagamentos que nenhuma conta cobrou.',
      example: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4',
    }),
    provider: z.string().nullable().openapi({ description: 'Código do provedor da conta; null com provider_account_id null.', example: 'asaas' }),
    ...analyticsFiguresShape,
    by_method: z.array(AnalyticsMethodFiguresSchema).openapi({ description: 'Os mesmos números, por método, só desta conta.' }),
  })
  .openapi('AnalyticsProviderFigures');

export const AnalyticsDayFiguresSchema = z
  .object({ date: z.string().openapi({ description: 'Dia de São Paulo, AAAA-MM-DD.', example: '2026-11-25' }), ...analyticsFiguresShape })
  .openapi('AnalyticsDayFigures');

const zeroFigures = { gross: 0, refunded: 0, fees: 0, net: 0, created: 0, approved: 0, refused: 0, canceled: 0, pending: 0, approval_rate: null };
const pixFigures = { gross: 9_980, refunded: 0, fees: 20, net: 9_960, created: 3, approved: 2, refused: 0, canceled: 1, pending: 0, approval_rate: 1 };
const cardFigures = { gross: 5_000, refunded: 2_000, fees: 250, net: 2_750, created: 2, approved: 1, refused: 1, canceled: 0, pending: 0, approval_rate: 0.5 };
const allFigures = { gross: 14_980, refunded: 2_000, fees: 270, net: 12_710, created: 5, approved: 3, refused: 1, canceled: 1, pending: 0, approval_rate: 0.75 };

export const AnalyticsOverviewSchema = z
  .object({
    object: z.literal('analytics_overview'),
    mode: z.enum(['test', 'live']).openapi({ description: 'O modo da chave: só pagamentos desse modo entram.' }),
    start: z.string().openapi({ description: 'Primeiro dia do período (AAAA-MM-DD, São Paulo, incluído).', example: '2026-11-24' }),
    end: z.string().openapi({ description: 'Último dia do período (AAAA-MM-DD, São Paulo, incluído).', example: '2026-11-25' }),
    timezone: z.literal('America/Sao_Paulo').openapi({ description: 'O fuso em que os dias são contados.' }),
    totals: AnalyticsFiguresSchema,
    by_provider: z.array(AnalyticsProviderFiguresSchema).openapi({ description: 'Uma linha por conta de provedor com pagamentos no período.' }),
    by_method: z.array(AnalyticsMethodFiguresSchema).openapi({ description: 'Uma linha por método com pagamentos no período.' }),
    daily: z.array(AnalyticsDayFiguresSchema).openapi({ description: 'Todos os dias do período, em ordem, inclusive os sem pagamentos (zeros).' }),
  })
  .openapi('AnalyticsOverview', {
    example: {
      object: 'analytics_overview',
      mode: 'test',
      start: '2026-11-24',
      end: '2026-11-25',
      timezone: 'America/Sao_Paulo',
      totals: allFigures,
      by_provider: [
        { provider_account_id: 'pa_01j9z0asaas0000000000000000', provider: 'asaas', ...pixFigures, by_method: [{ method: 'pix', ...pixFigures }] },
        { provider_account_id: 'pa_01j9z0stripe000000000000000', provider: 'stripe', ...cardFigures, by_method: [{ method: 'card', ...cardFigures }] },
      ],
      by_method: [
        { method: 'card', ...cardFigures },
        { method: 'pix', ...pixFigures },
      ],
      daily: [
        { date: '2026-11-24', ...zeroFigures },
        { date: '2026-11-25', ...allFigures },
      ],
    },
  });

export type AnalyticsFiguresJson = z.infer<typeof AnalyticsFiguresSchema>;
export type AnalyticsMethodFiguresJson = z.infer<typeof AnalyticsMethodFiguresSchema>;
export type AnalyticsOverviewJson = z.infer<typeof AnalyticsOverviewSchema>;
