import type { ResponseConfig } from '@asteasolutions/zod-to-openapi';
import { MESSAGES_PT_BR, type ErrorCode } from '@orquestra/platform';
import { httpErrorFor } from '../http/error-mapper';
import { ErrorBodySchema } from '../schemas/error.response.schema';
import type { z } from '../schemas/zod-openapi';

// Building blocks shared by every part of the OpenAPI document.

export const BEARER = [{ bearerAuth: [] as string[] }];
export const PUBLIC: Array<Record<string, string[]>> = [];

/**
 * Error responses for the given codes, grouped by the status the error mapper gives them, each
 * with one example per code, so the documented statuses are the ones the code answers.
 */
export function errorResponses(...codes: ErrorCode[]): Record<number, ResponseConfig> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const { status } = httpErrorFor(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const responses: Record<number, ResponseConfig> = {};
  for (const [status, group] of byStatus) {
    responses[status] = {
      description: `Erro: ${group.join(', ')}.`,
      // A rate limit's window, or a pause while the store is out of reach (1 s): when given, wait that long before repeating.
      ...(status === 429 || status === 503 ? { headers: { 'Retry-After': { description: 'Segundos até tentar de novo, quando informado.', schema: { type: 'integer', minimum: 0 } } } } : {}),
      content: {
        'application/json': {
          schema: ErrorBodySchema,
          examples: Object.fromEntries(
            group.map((code) => [
              code,
              {
                value: {
                  error: { type: httpErrorFor(code).type, message: MESSAGES_PT_BR[code], code, param: null },
                },
              },
            ]),
          ),
        },
      },
    };
  }
  return responses;
}

export const AUTH_ERRORS: ErrorCode[] = ['unauthenticated', 'service_unavailable', 'internal'];

export function json(schema: z.ZodTypeAny, description: string): ResponseConfig {
  return { description, content: { 'application/json': { schema } } };
}

/** The errors of every full-key route: the auth errors plus `restricted_key`. */
export const FULL_KEY_ERRORS: ErrorCode[] = ['restricted_key', ...AUTH_ERRORS];

/** The answer headers of a create that takes an Idempotency-Key (`POST /payments`, `/subscriptions`, refunds). */
export const REPLAYED_HEADER = {
  'Idempotent-Replayed': { description: 'true quando a resposta repete um pedido anterior.', schema: { type: 'string' as const, enum: ['true'] } },
};
export const REQUEST_ID_HEADER = { 'X-Request-Id': { description: 'Id da requisição.', schema: { type: 'string' as const } } };
