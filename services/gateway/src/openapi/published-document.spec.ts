import { readFileSync } from 'node:fs';
import path from 'node:path';
import { publishedDocumentText, PUBLISHED_SERVER_URL } from './published-document';

const PUBLISHED = path.resolve(__dirname, '../../../../docs/openapi.json');

describe('docs/openapi.json (the published OpenAPI document)', () => {
  it('is exactly what the code generates (regenerate with `npm run openapi:write`)', () => {
    const committed = readFileSync(PUBLISHED, 'utf8');
    // toBe on the whole text shows the first difference; the hint names the fix.
    if (committed !== publishedDocumentText()) {
      throw new Error('docs/openapi.json is out of date: run `npm run openapi:write` and commit it.\n' + firstDifference(committed, publishedDocumentText()));
    }
  });

  it('names the local stack as its server and carries the request samples', () => {
    const document = JSON.parse(readFileSync(PUBLISHED, 'utf8'));
    expect(document.servers[0].url).toBe(PUBLISHED_SERVER_URL);
    expect(document.paths['/v1/payments'].post['x-codeSamples'].map((sample: { label: string }) => sample.label)).toEqual(['curl', '@orquestra/node']);
  });
});

function firstDifference(a: string, b: string): string {
  const linesA = a.split('\n');
  const linesB = b.split('\n');
  const index = linesA.findIndex((line, i) => line !== linesB[i]);
  const at = index === -1 ? linesA.length : index;
  return `first difference at line ${at + 1}:\n  committed: ${linesA[at] ?? '(end)'}\n  generated: ${linesB[at] ?? '(end)'}`;
}
