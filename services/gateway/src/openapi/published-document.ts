import { buildOpenApiDocument } from './openapi.document';

/**
 * The server of the published document (docs/openapi.json): the local stack `npm start` runs. A
 * running gateway serves the same document at /v1/openapi.json with its own PUBLIC_BASE_URL.
 */
export const PUBLISHED_SERVER_URL = 'http://localhost:8080';

/** The published document as written to docs/openapi.json: 2-space JSON and a final newline. */
export function publishedDocumentText(): string {
  return `${JSON.stringify(buildOpenApiDocument({ serverUrl: PUBLISHED_SERVER_URL }), null, 2)}\n`;
}
