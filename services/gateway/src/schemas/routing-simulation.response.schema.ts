import { ERROR_CODES } from '@orquestra/platform';
import { BreakerStateSchema } from './provider-account.response.schema';
import { z } from './zod-openapi';

// The answer of POST /v1/routing/simulate: what the routing service decided, for every connected
// account of the key's mode, in its own words (reasons are the routing service's text).

export const ROUTING_VERDICTS = ['chosen', 'ranked_lower', 'excluded'] as const;

export const RoutingCandidateSchema = z
  .object({
    account_id: z.string().openapi({ example: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    provider: z.string().openapi({ example: 'efi' }),
    rank: z.number().int().openapi({ description: 'Posição na ordem de tentativa (1 = primeira).', example: 1 }),
    priority: z.number().int().openapi({ description: 'Prioridade da conta.', example: 10 }),
    reason: z.string().openapi({ description: 'Por que a conta está nesta posição.', example: 'eligible; priority 10' }),
  })
  .openapi('RoutingCandidate');

export const AccountVerdictSchema = z
  .object({
    account_id: z.string(),
    provider: z.string(),
    verdict: z.enum(ROUTING_VERDICTS).openapi({ description: 'chosen: tentada primeiro; ranked_lower: tentada depois; excluded: não seria tentada.' }),
    rank: z.number().int().nullable().openapi({ description: 'Posição na ordem de tentativa; null quando excluída.' }),
    reasons: z.array(z.string()).openapi({ description: 'Motivos da decisão (por que foi excluída, ou a razão da posição).' }),
    breaker_state: BreakerStateSchema,
    success_rate: z
      .number()
      .nullable()
      .openapi({ description: 'Taxa de sucesso recente, de 0 a 1; null quando ainda não há tentativas suficientes.', example: 0.97 }),
    recent_attempts: z.number().int().openapi({ description: 'Tentativas recentes consideradas na taxa.', example: 120 }),
  })
  .openapi('RoutingAccountVerdict');

export const RoutingSimulationErrorSchema = z
  .object({
    code: z.enum(ERROR_CODES).openapi({ example: 'missing_document' }),
    param: z.string().nullable().openapi({ example: 'customer.document' }),
    message: z.string().openapi({ description: 'Em português; diz o que fazer para o pagamento passar.' }),
  })
  .openapi('RoutingSimulationError', {
    description: 'O erro que a criação do pagamento daria agora (por exemplo no_eligible_account ou missing_document).',
  });

export const RoutingSimulationSchema = z
  .object({
    object: z.literal('routing_simulation'),
    candidates: z.array(RoutingCandidateSchema).openapi({ description: 'As contas que seriam tentadas, em ordem.' }),
    accounts: z.array(AccountVerdictSchema).openapi({ description: 'Cada conta conectada neste modo e a decisão sobre ela.' }),
    matched_rule_id: z.string().nullable().openapi({ description: 'A regra que decidiu a ordem; null quando nenhuma casou.' }),
    error: z.union([RoutingSimulationErrorSchema, z.null()]).openapi({ description: 'null quando alguma conta aceitaria o pagamento.' }),
  })
  .openapi('RoutingSimulation', {
    example: {
      object: 'routing_simulation',
      candidates: [{ account_id: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4', provider: 'efi', rank: 1, priority: 10, reason: 'eligible; priority 10' }],
      accounts: [
        {
          account_id: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4',
          provider: 'efi',
          verdict: 'chosen',
          rank: 1,
          reasons: ['eligible; priority 10'],
          breaker_state: 'closed',
          success_rate: null,
          recent_attempts: 3,
        },
        {
          account_id: 'pa_01j9z0k3x7m2q8r4t6v8w0y2b5',
          provider: 'pagarme',
          verdict: 'excluded',
          rank: null,
          reasons: ['requires customer.email for pix'],
          breaker_state: 'closed',
          success_rate: null,
          recent_attempts: 0,
        },
      ],
      matched_rule_id: null,
      error: null,
    },
  });

export type RoutingSimulationJson = z.infer<typeof RoutingSimulationSchema>;
