import type { FieldHints } from '../validation/field-hints.pt-br';
import { MAX_AMOUNT, PaymentMethodSchema } from './create-payment.schema';
import { METADATA_LIMITS } from './metadata.schema';
import { z } from './zod-openapi';

export const CUSTOMER_FIELDS = ['document', 'email', 'phone', 'address'] as const;
export const CustomerFieldSchema = z.enum(CUSTOMER_FIELDS).openapi('CustomerField', {
  description: 'Dado do cliente: document (CPF/CNPJ), email, phone ou address (endereço completo).',
});

/** Limits of a routing rule (the routing service keeps at most 100 rules per mode). */
export const RULE_LIMITS = {
  maxNameLength: 100,
  maxMetadataConditions: 20,
  maxTargetAccounts: 20,
  maxRules: 100,
  maxPriority: 1_000_000,
} as const;

const ACCOUNT_ID = /^pa_[A-Za-z0-9]{1,100}$/;
const RULE_ID = /^rr_[A-Za-z0-9]{1,100}$/;

export const TargetAccountIdSchema = z
  .string()
  .regex(ACCOUNT_ID)
  .openapi({ description: 'Id de uma conta conectada (GET /v1/provider-accounts).', example: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4' });

export const RoutingRuleIdSchema = z
  .string()
  .regex(RULE_ID)
  .openapi({ description: 'Id da regra de roteamento.', example: 'rr_01j9z0k3x7m2q8r4t6v8w0y2a4' });

/** Optional bound in cents; 0 or null mean "no bound" (what GET shows as null can be sent back). */
const AmountBoundSchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_AMOUNT)
  .nullable()
  .optional()
  .openapi({ description: 'Centavos; 0 ou null: sem limite.', example: 10_000 });

export const MetadataConditionSchema = z
  .object({
    key: z.string().min(1).max(METADATA_LIMITS.maxKeyLength).openapi({ example: 'product' }),
    value: z
      .string()
      .max(METADATA_LIMITS.maxValueLength)
      .nullable()
      .optional()
      .openapi({ description: 'Valor exigido; omitido, vazio ou null: qualquer valor (basta a chave existir).', example: 'curso' }),
  })
  .strict()
  .openapi('MetadataCondition');

export const RuleConditionsSchema = z
  .object({
    methods: z.array(PaymentMethodSchema).max(3).optional().openapi({ description: 'Só pagamentos destes métodos; vazio: qualquer método.' }),
    amount_min: AmountBoundSchema,
    amount_max: AmountBoundSchema,
    metadata: z
      .array(MetadataConditionSchema)
      .max(RULE_LIMITS.maxMetadataConditions)
      .optional()
      .openapi({ description: 'Todas precisam casar com a metadata do pagamento.' }),
    customer_has: z
      .array(CustomerFieldSchema)
      .max(CUSTOMER_FIELDS.length)
      .optional()
      .openapi({ description: 'Dados do cliente que precisam estar presentes no pagamento.' }),
  })
  .strict()
  .superRefine((conditions, ctx) => {
    const { amount_min: min, amount_max: max } = conditions;
    if (min && max && min > max) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount_max'],
        message: `O campo conditions.amount_max (${max}) deve ser maior ou igual a conditions.amount_min (${min}).`,
      });
    }
  })
  .openapi('RuleConditions', { description: 'Todas as condições informadas precisam valer; sem condições, a regra vale para todo pagamento.' });

const fallbackSchema = z
  .boolean()
  .optional()
  .openapi({ description: 'true (padrão): as demais contas elegíveis entram depois das contas do alvo, por prioridade.' });

function uniqueIds(ids: string[], ctx: z.RefinementCtx, path: (index: number) => Array<string | number>, field: string): void {
  const seen = new Set<string>();
  ids.forEach((id, index) => {
    if (seen.has(id)) ctx.addIssue({ code: 'custom', path: path(index), message: `A conta ${id} aparece mais de uma vez em ${field}. Informe cada conta uma só vez.` });
    seen.add(id);
  });
}

export const AccountsTargetSchema = z
  .object({
    type: z.literal('accounts'),
    accounts: z.array(TargetAccountIdSchema).min(1).max(RULE_LIMITS.maxTargetAccounts),
    fallback: fallbackSchema,
  })
  .strict()
  .openapi('AccountsTarget', { description: 'Lista ordenada: a primeira conta é tentada primeiro.' });

export const WeightedAccountSchema = z
  .object({
    account_id: TargetAccountIdSchema,
    percentage: z.number().int().min(1).max(100).openapi({ example: 70 }),
  })
  .strict()
  .openapi('WeightedAccount');

export const WeightedTargetSchema = z
  .object({
    type: z.literal('weighted'),
    weights: z.array(WeightedAccountSchema).min(1).max(RULE_LIMITS.maxTargetAccounts),
    fallback: fallbackSchema,
  })
  .strict()
  .openapi('WeightedTarget', { description: 'Divisão por porcentagem (inteiros que somam 100).' });

export const RuleTargetSchema = z
  .discriminatedUnion('type', [AccountsTargetSchema, WeightedTargetSchema])
  .superRefine((target, ctx) => {
    if (target.type === 'accounts') {
      uniqueIds(target.accounts, ctx, (index) => ['accounts', index], 'target.accounts');
      return;
    }
    uniqueIds(
      target.weights.map((weight) => weight.account_id),
      ctx,
      (index) => ['weights', index, 'account_id'],
      'target.weights',
    );
    const total = target.weights.reduce((sum, weight) => sum + weight.percentage, 0);
    if (total !== 100) {
      ctx.addIssue({
        code: 'custom',
        path: ['weights'],
        message: `As porcentagens de target.weights devem somar 100 (somam ${total}). Ajuste os valores de percentage.`,
      });
    }
  })
  .openapi('RuleTarget', { description: 'Para onde a regra manda o pagamento: contas em ordem (accounts) ou por porcentagem (weighted).' });

const RULE_EXAMPLE = {
  name: 'Cursos pela Efí',
  conditions: { methods: ['pix' as const], metadata: [{ key: 'product', value: 'curso' }] },
  target: {
    type: 'weighted' as const,
    weights: [
      { account_id: 'pa_01j9z0k3x7m2q8r4t6v8w0y2a4', percentage: 70 },
      { account_id: 'pa_01j9z0k3x7m2q8r4t6v8w0y2b5', percentage: 30 },
    ],
  },
  fallback: true,
};

const ruleShape = {
  name: z.string().trim().min(1).max(RULE_LIMITS.maxNameLength).openapi({ example: 'Cursos pela Efí' }),
  priority: z
    .number()
    .int()
    .min(1)
    .max(RULE_LIMITS.maxPriority)
    .optional()
    .openapi({ description: 'Ordem de avaliação: número menor é avaliado primeiro. Omitido: depois da última regra (na criação) ou sem mudança.' }),
  enabled: z.boolean().optional().openapi({ description: 'Padrão true na criação; omitido na alteração: sem mudança.' }),
  conditions: RuleConditionsSchema.optional(),
  target: RuleTargetSchema,
  fallback: fallbackSchema,
};

/** `fallback` may be sent at the top or inside `target`; both, with different values, is ambiguous. */
function refuseConflictingFallback(rule: { fallback?: boolean | undefined; target?: { fallback?: boolean | undefined } | undefined }, ctx: z.RefinementCtx): void {
  const inTarget = rule.target?.fallback;
  if (rule.fallback !== undefined && inTarget !== undefined && rule.fallback !== inTarget) {
    ctx.addIssue({ code: 'custom', path: ['fallback'], message: 'fallback e target.fallback têm valores diferentes. Informe só um dos dois.' });
  }
}

export const RoutingRuleInputSchema = z
  .object(ruleShape)
  .strict()
  .superRefine(refuseConflictingFallback)
  .openapi('RoutingRuleInput', { description: 'Regra de roteamento: a primeira regra ativa cujas condições valem decide a ordem das contas.', example: RULE_EXAMPLE });

export type RoutingRuleInput = z.output<typeof RoutingRuleInputSchema>;

const UPDATABLE_RULE_FIELDS = ['name', 'priority', 'enabled', 'conditions', 'target', 'fallback'] as const;

/**
 * POST /v1/routing-rules/{id}: only the fields sent change. `conditions` and `target` are replaced
 * as a whole when sent; `fallback` alone changes the fallback of the current target.
 */
export const UpdateRoutingRuleSchema = z
  .object({ ...ruleShape, name: ruleShape.name.optional(), target: ruleShape.target.optional() })
  .strict()
  .superRefine((rule, ctx) => {
    if (UPDATABLE_RULE_FIELDS.every((field) => rule[field] === undefined)) {
      ctx.addIssue({
        code: 'custom',
        params: { code: 'parameter_missing' },
        message: `Informe ao menos um campo para alterar: ${UPDATABLE_RULE_FIELDS.join(', ')}.`,
      });
      return;
    }
    refuseConflictingFallback(rule, ctx);
  })
  .openapi('UpdateRoutingRule', { example: { enabled: false } });

export type UpdateRoutingRuleInput = z.output<typeof UpdateRoutingRuleSchema>;

export const ReorderRoutingRulesSchema = z
  .object({
    ids: z
      .array(RoutingRuleIdSchema)
      .min(1)
      .max(RULE_LIMITS.maxRules)
      .superRefine((ids, ctx) => {
        const seen = new Set<string>();
        ids.forEach((id, index) => {
          if (seen.has(id)) ctx.addIssue({ code: 'custom', path: [index], message: `A regra ${id} aparece mais de uma vez em ids. Informe cada regra uma só vez.` });
          seen.add(id);
        });
      })
      .openapi({ description: 'Todos os ids das regras deste modo, cada um uma vez, na ordem de avaliação desejada.' }),
  })
  .strict()
  .openapi('ReorderRoutingRules', { example: { ids: ['rr_01j9z0k3x7m2q8r4t6v8w0y2c6', 'rr_01j9z0k3x7m2q8r4t6v8w0y2a4'] } });

export type ReorderRoutingRulesInput = z.output<typeof ReorderRoutingRulesSchema>;

const ACCOUNT_HINT = 'Informe o id de uma conta conectada (pa_…), como aparece em GET /v1/provider-accounts.';

/** What to do about each field of a rule body. */
export const ROUTING_RULE_HINTS: FieldHints = {
  name: `Dê à regra um nome de 1 a ${RULE_LIMITS.maxNameLength} caracteres.`,
  priority: 'Informe um número inteiro maior ou igual a 1; número menor é avaliado primeiro.',
  enabled: 'Use true ou false.',
  fallback: 'Use true (as demais contas entram depois das contas do alvo) ou false (só as contas do alvo).',
  conditions: 'Informe as condições como objeto com methods, amount_min, amount_max, metadata e customer_has (todas opcionais).',
  'conditions.methods': 'Informe uma lista com pix, card e/ou boleto.',
  'conditions.methods[]': 'Use pix, card ou boleto.',
  'conditions.amount_min': 'Informe o valor mínimo em centavos como número inteiro (0 ou null: sem limite).',
  'conditions.amount_max': 'Informe o valor máximo em centavos como número inteiro (0 ou null: sem limite).',
  'conditions.metadata': `Informe até ${RULE_LIMITS.maxMetadataConditions} condições no formato [{"key": "product", "value": "curso"}].`,
  'conditions.metadata[]': 'Cada condição é um objeto com key e, opcionalmente, value.',
  'conditions.metadata[].key': `Informe a chave de metadata com 1 a ${METADATA_LIMITS.maxKeyLength} caracteres.`,
  'conditions.metadata[].value': `Informe o valor exigido como texto de até ${METADATA_LIMITS.maxValueLength} caracteres, ou omita para aceitar qualquer valor.`,
  'conditions.customer_has': 'Informe uma lista com document, email, phone e/ou address.',
  'conditions.customer_has[]': 'Use document, email, phone ou address.',
  target: 'Informe o alvo: {"type": "accounts", "accounts": ["pa_…"]} ou {"type": "weighted", "weights": [{"account_id": "pa_…", "percentage": 100}]}.',
  'target.accounts': `Informe de 1 a ${RULE_LIMITS.maxTargetAccounts} ids de contas conectadas (pa_…), na ordem de tentativa.`,
  'target.accounts[]': ACCOUNT_HINT,
  'target.weights': `Informe de 1 a ${RULE_LIMITS.maxTargetAccounts} contas com percentage inteiro; as porcentagens somam 100.`,
  'target.weights[]': 'Cada item é um objeto com account_id e percentage.',
  'target.weights[].account_id': ACCOUNT_HINT,
  'target.weights[].percentage': 'Informe um número inteiro de 1 a 100; as porcentagens somam 100.',
  'target.fallback': 'Use true (as demais contas entram depois das contas do alvo) ou false (só as contas do alvo).',
  ids: `Informe todos os ids das regras (rr_…) deste modo, cada um uma vez, na ordem desejada (até ${RULE_LIMITS.maxRules}).`,
  'ids[]': 'Informe o id de uma regra (rr_…), como aparece em GET /v1/routing-rules.',
};
