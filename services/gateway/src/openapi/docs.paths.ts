import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { DOCS_ASSETS } from '../docs/api-reference';
import { z } from '../schemas/zod-openapi';
import { errorResponses, PUBLIC } from './openapi.helpers';

/** GET /docs and its scripts: the API reference rendering this document. */
export function registerDocsPath(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/docs',
    operationId: 'getApiReference',
    tags: ['Meta'],
    summary: 'Referência da API (HTML): este documento com busca e exemplos em curl e no SDK',
    description: 'Servida pelo próprio gateway, sem CDN: a página e seus scripts vêm deste servidor e só leem /v1/openapi.json.',
    security: PUBLIC,
    responses: { 200: { description: 'A página HTML.', content: { 'text/html': { schema: z.string() } } } },
  });
  registry.registerPath({
    method: 'get',
    path: '/docs/assets/{file}',
    operationId: 'getApiReferenceAsset',
    tags: ['Meta'],
    summary: 'Os scripts da referência da API (o visualizador e sua configuração)',
    security: PUBLIC,
    request: { params: z.object({ file: z.enum(DOCS_ASSETS).openapi({ description: 'O arquivo.', example: 'init.js' }) }) },
    responses: {
      200: { description: 'JavaScript.', content: { 'text/javascript': { schema: z.string() } } },
      ...errorResponses('route_not_found'),
    },
  });
}
