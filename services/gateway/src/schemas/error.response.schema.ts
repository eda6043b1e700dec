import { ERROR_CODES } from '@orquestra/platform';
import { z } from './zod-openapi';

export const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'permission_error',
  'rate_limit_error',
  'idempotency_error',
  'card_error',
  'provider_error',
  'api_error',
] as const;

/** The spec's error body (§7). */
export const ErrorBodySchema = z
  .object({
    error: z.object({
      type: z.enum(ERROR_TYPES),
      message: z.string().openapi({ description: 'Em português; diz o que fazer.' }),
      code: z.enum(ERROR_CODES).openapi({ description: 'Motivo normalizado.' }),
      param: z.string().nullable().openapi({ description: 'Campo com problema, em notação pontuada (customer.name).' }),
    }),
  })
  .openapi('Error', {
    example: {
      error: {
        type: 'invalid_request_error',
        message: 'O campo customer.name é obrigatório. Informe o nome do cliente.',
        code: 'parameter_missing',
        param: 'customer.name',
      },
    },
  });
