import { fakeClients } from '../testing/fake-clients';
import { startApp, type RunningApp } from '../testing/http-harness';
import { buildOpenApiDocument } from '../openapi/openapi.document';
import { renderReferencePage } from './reference.page';
import { escapeHtml } from './schema.render';

type Json = Record<string, any>;

const doc = buildOpenApiDocument({ serverUrl: 'https://api.example.com' }) as unknown as Json;

describe('API reference page', () => {
  const html = renderReferencePage(doc);

  it('shows every path and operation of the document, grouped by tag', () => {
    for (const [path, item] of Object.entries(doc['paths'] as Json)) {
      expect(html).toContain(`<code class="path">${escapeHtml(path)}</code>`);
      for (const op of Object.values(item as Json)) {
        expect(html).toContain(`id="op-${(op as Json)['operationId']}"`);
      }
    }
    for (const tag of ['Payments', 'Events', 'Meta']) expect(html).toContain(`<h2 id="tag-${tag}">${tag}</h2>`);
  });

  it('shows parameters, request schemas, examples and the error codes', () => {
    expect(html).toContain('<code>Idempotency-Key</code>');
    expect(html).toContain('id="schema-CreatePayment"');
    expect(html).toContain('<a href="#schema-Payment">Payment</a>');
    expect(html).toContain('Exemplo: amount_too_small');
    expect(html).toContain(escapeHtml('"code": "restricted_key"'));
    expect(html).toContain('id="schema-Error"');
  });

  it('escapes what comes from the document', () => {
    const hostile = renderReferencePage({
      info: { title: '<script>alert(1)</script>' },
      paths: { '/x': { get: { operationId: 'x', summary: '<img src=x onerror=alert(1)>', responses: {} } } },
    });
    expect(hostile).not.toContain('<script>');
    expect(hostile).not.toContain('<img');
  });

  describe('GET /docs', () => {
    let app: RunningApp;
    beforeAll(async () => {
      app = await startApp({ clients: fakeClients() });
    });
    afterAll(() => app.close());

    it('answers the page without a key, with a CSP that allows no script and no other origin', async () => {
      const answer = await app.request('GET', '/docs');
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
      const csp = answer.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('script-src');
      expect(csp).not.toMatch(/https?:/);
      expect(answer.text).not.toMatch(/<script|<link|src="http|href="http/);
      const served = (await app.request('GET', '/v1/openapi.json')).json as Json;
      for (const path of Object.keys(served['paths'])) expect(answer.text).toContain(escapeHtml(path));
    });
  });
});
