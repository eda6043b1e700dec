// Writes the OpenAPI document built from the code to a file, without starting a server. Used by
// `npm run openapi:write` (docs/openapi.json, the published copy) and `npm run openapi:lint`
// (a scratch copy under dist/ that Redocly lints): see docs/api-reference.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { publishedDocumentText } from './published-document';

const [file] = process.argv.slice(2);
if (!file) {
  console.error('usage: node write-document.js <file.json>');
  process.exit(2);
}
mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
writeFileSync(file, publishedDocumentText());
console.log(`wrote ${file}`);
