import { z } from './zod-openapi';

// A routing rule as the public API shows it (the spec leaves its fields open, §2 "Gaps"). Bounds
// the routing service stores as 0 ("no bound") are shown as null, and a metadata condition
// without a value as value null, so what GET shows can be sent back unchanged.

export const RuleConditionsOutputSchema = z
  .object({
    methods: z.array(z.string()),
    amount_min: z.number().int().nullable(),
    amount_max: z.number().int().nullable(),
    metadata: z.array(z.object({ key: z.string(), value: z.string().nullable() })),
    customer_has: z.array(z.string()),
  })
  .openapi('RuleConditionsOutput');

export const RuleTargetOutputSchema = z
  .union([
    z.object({ type: z.literal('accounts'), accounts: z.array(z.string()), fallback: z.boolean() }),
    z.object({ type: z.literal('weighted'), weights: z.array(z.object({ account_id: z.string(), percentage: z.number().int() })), fallback: z.boolean() }),
  ])
  .openapi('RuleTargetOutput');

const RoutingRuleShape = z
  .object({
    id: z.string().openapi({ example: 'rr_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('routing_rule'),
    mode: z.enum(['test', 'live']),
    name: z.string(),
    priority: z.number().int().openapi({ description: 'Ordem de avaliação (1 = primeira).' }),
    enabled: z.boolean(),
    conditions: RuleConditionsOutputSchema,
    target: RuleTargetOutputSchema,
    created_at: z.string(),
    updated_at: z.string(),
  });

const RULE_EXAMPLE: z.infer<typeof RoutingRuleShape> = {
  id: 'rr_01j9z0k3x7m2q8r4t6v8w0y2a4',
  object: 'routing_rule',
  mode: 'test',
  name: 'Cursos pela Efí',
  priority: 1,
  enabled: true,
  conditions: { methods: ['pix'], amount_min: null, amount_max: null, metadata: [{ key: 'product', value: 'curso' }], customer_has: [] },
  target: { type: 'accounts', accounts: ['pa_01j9z0k3x7m2q8r4t6v8w0y2a4'], fallback: true },
  created_at: '2026-10-01T12:00:00.000Z',
  updated_at: '2026-10-01T12:00:00.000Z',
};

export const RoutingRuleSchema = RoutingRuleShape.openapi('RoutingRule', { example: RULE_EXAMPLE });

export const RoutingRuleListSchema = z
  .object({ object: z.literal('list'), data: z.array(RoutingRuleSchema), has_more: z.literal(false) })
  .openapi('RoutingRuleList', {
    description: 'Todas as regras do modo da chave, na ordem de avaliação.',
    example: { object: 'list', data: [RULE_EXAMPLE], has_more: false },
  });

export const DeletedRoutingRuleSchema = z
  .object({ id: z.string().openapi({ example: 'rr_01j9z0k3x7m2q8r4t6v8w0y2a4' }), object: z.literal('routing_rule'), deleted: z.literal(true) })
  .openapi('DeletedRoutingRule', { example: { id: 'rr_01j9z0k3x7m2q8r4t6v8w0y2a4', object: 'routing_rule', deleted: true } });

export type RoutingRuleJson = z.infer<typeof RoutingRuleSchema>;
export type RoutingRuleListJson = z.infer<typeof RoutingRuleListSchema>;
export type DeletedRoutingRuleJson = z.infer<typeof DeletedRoutingRuleSchema>;
