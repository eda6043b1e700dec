import { z } from './zod-openapi';

export const RequestLogSchema = z
  .object({
    id: z.string().openapi({ example: 'rlog_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    object: z.literal('request_log'),
    request_id: z.string().openapi({ description: 'O X-Request-Id da chamada (cite-o ao pedir suporte).', example: 'req_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    method: z.string().openapi({ example: 'POST' }),
    path: z.string().openapi({ description: 'O caminho, sem a query string.', example: '/v1/payments' }),
    status: z.number().int().openapi({ description: 'O status HTTP respondido.', example: 201 }),
    duration_ms: z.number().openapi({ description: 'Milissegundos até a resposta, no gateway.', example: 42.5 }),
    mode: z.enum(['test', 'live']),
    key_id: z.string().openapi({ description: 'A chave (ou a autorização OAuth) que chamou.', example: 'key_01j9z0k3x7m2q8r4t6v8w0y2a4' }),
    key_last4: z.string().openapi({ description: 'Os 4 últimos caracteres da chave; vazio para um token OAuth.', example: 'a1b2' }),
    created_at: z.string().openapi({ description: 'ISO 8601, com milissegundos.', example: '2026-11-28T22:31:05.123Z' }),
  })
  .openapi('RequestLog');

export const RequestLogListSchema = z
  .object({ object: z.literal('list'), data: z.array(RequestLogSchema), has_more: z.boolean() })
  .openapi('RequestLogList');

export type RequestLogJson = z.infer<typeof RequestLogSchema>;
export type RequestLogListJson = z.infer<typeof RequestLogListSchema>;
