import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { z } from '../schemas/zod-openapi';
import { PUBLIC } from './openapi.helpers';

/** GET /docs: the reference page rendered from this document. */
export function registerDocsPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/docs',
    operationId: 'getApiReference',
    tags: ['Meta'],
    summary: 'Referência da API em HTML (gerada deste documento, sem scripts)',
    security: PUBLIC,
    responses: { 200: { description: 'Página HTML autocontida.', content: { 'text/html': { schema: z.string() } } } },
  });
}
