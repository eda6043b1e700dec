import { DISPUTE_STATUSES } from '@orquestra/contracts';
import { z } from './zod-openapi';
import type { FieldHints } from '../validation/field-hints.pt-br';

/** POST /v1/payments/{id}/simulate-dispute (test mode). */
export const SimulateDisputeSchema = z
  .object({
    amount: z.number().int().min(1).max(1_000_000_000).optional().openapi({
      description: 'Valor contestado em centavos. Omitido: tudo o que foi pago e ainda não reembolsado.',
      example: 1990,
    }),
    reason: z.string().trim().min(1).max(500).optional().openapi({ example: 'Pagador não reconhece o Pix.' }),
  })
  .strict()
  .openapi('SimulateDisputeRequest');

/** POST /v1/disputes/{id}/evidence. */
export const DisputeEvidenceSchema = z
  .object({
    text: z.string().trim().min(1).max(20_000).openapi({
      description: 'A resposta do lojista. No modo de teste, `winning_evidence` ganha e `losing_evidence` perde a disputa.',
      example: 'Pedido entregue em 12/11 (rastreio BR123456789). winning_evidence',
    }),
    urls: z
      .array(z.string().url().max(2_000).refine((url) => /^https?:\/\//.test(url), 'Use links http(s).'))
      .max(20)
      .default([])
      .openapi({ description: 'Links públicos para as provas (nota fiscal, rastreio…).', example: ['https://loja.example/nf/123.pdf'] }),
  })
  .strict()
  .openapi('DisputeEvidenceRequest');

/** GET /v1/disputes query. */
export const ListDisputesQuerySchema = z
  .object({
    status: z.enum(DISPUTE_STATUSES).optional(),
    payment_id: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/).optional(),
    limit: z.coerce.number().int().min(1).max(100).default(10),
    starting_after: z.string().regex(/^[A-Za-z0-9_-]{1,100}$/).optional(),
  })
  .strict();

export const DISPUTE_HINTS: FieldHints = {
  text: 'Envie um texto com a resposta do lojista (até 20.000 caracteres).',
  urls: 'Envie uma lista de até 20 links http(s) públicos.',
  'urls[]': 'Cada item deve ser um link http(s) completo.',
  amount: 'Envie o valor em centavos (inteiro ≥ 1), no máximo o valor pago e não reembolsado.',
};

export const DisputeSchema = z
  .object({
    id: z.string().openapi({ example: 'dp_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('dispute'),
    kind: z.enum(['med', 'chargeback']),
    status: z.enum(DISPUTE_STATUSES),
    amount: z.number().int(),
    reason: z.string().nullable(),
    due_at: z.string().openapi({ description: 'Prazo para responder.', example: '2026-11-29T12:00:00.000Z' }),
    payment_id: z.string(),
    provider: z.string(),
    mode: z.enum(['test', 'live']),
    evidence: z.object({ text: z.string(), urls: z.array(z.string()), submitted_at: z.string() }).nullable(),
    created_at: z.string(),
    updated_at: z.string(),
    closed_at: z.string().nullable(),
  })
  .openapi('Dispute');

export const DisputeListSchema = z
  .object({ object: z.literal('list'), data: z.array(DisputeSchema), has_more: z.boolean() })
  .openapi('DisputeList');
