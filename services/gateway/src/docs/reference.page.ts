import { escapeHtml, exampleBlock, propertiesTable, refName, schemaAnchor, typeLabel, type Json } from './schema.render';
import { REFERENCE_CSS } from './reference.style';

// The API reference at GET /docs: one self-contained HTML page rendered on the server from the
// OpenAPI document (no scripts, no CDN: it works offline and under a strict CSP).

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface Operation {
  method: string;
  path: string;
  op: Json;
}

const asJson = (value: unknown): Json => (value && typeof value === 'object' ? (value as Json) : {});
const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

function operationsOf(document: Json): Operation[] {
  return Object.entries(asJson(document['paths'])).flatMap(([path, item]) =>
    METHODS.filter((method) => asJson(item)[method]).map((method) => ({ method, path, op: asJson(asJson(item)[method]) })),
  );
}

function operationAnchor(op: Operation): string {
  return `op-${String(op.op['operationId'] ?? `${op.method}-${op.path}`).replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

function parametersSection(op: Json): string {
  const parameters = asArray(op['parameters']);
  if (parameters.length === 0) return '';
  const rows = parameters.map((p) => {
    const schema = asJson(p['schema']);
    const description = escapeHtml(p['description'] ?? schema['description'] ?? '');
    return (
      `<tr><td><code>${escapeHtml(p['name'])}</code>${p['required'] ? ' <span class="req">obrigatório</span>' : ''}</td>` +
      `<td>${escapeHtml(p['in'])}</td><td>${typeLabel(schema)}</td><td>${description}</td></tr>`
    );
  });
  return `<h4>Parâmetros</h4><table><thead><tr><th>Nome</th><th>Em</th><th>Tipo</th><th>Descrição</th></tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function contentSection(content: unknown, schemas: Json): string {
  return Object.entries(asJson(content))
    .map(([mediaType, media]) => {
      const schema = asJson(asJson(media)['schema']);
      const named = typeof schema['$ref'] === 'string' ? refName(schema['$ref']) : undefined;
      const parts = [`<p class="type"><code>${escapeHtml(mediaType)}</code> ${typeLabel(schema)}</p>`];
      const example = asJson(media)['example'] ?? (named ? asJson(schemas[named])['example'] : undefined);
      if (example !== undefined) parts.push(exampleBlock('Exemplo', example));
      for (const [name, entry] of Object.entries(asJson(asJson(media)['examples']))) {
        parts.push(exampleBlock(`Exemplo: ${name}`, asJson(entry)['value']));
      }
      return parts.join('');
    })
    .join('');
}

function requestSection(op: Json, schemas: Json): string {
  const body = asJson(op['requestBody']);
  if (!body['content']) return '';
  return `<h4>Corpo${body['required'] ? ' (obrigatório)' : ''}</h4>${contentSection(body['content'], schemas)}`;
}

function responsesSection(op: Json, schemas: Json): string {
  const rows = Object.entries(asJson(op['responses'])).map(([status, response]) => {
    const kind = status.startsWith('2') ? 'ok' : 'err';
    return (
      `<div class="response"><p><span class="status ${kind}">${escapeHtml(status)}</span> ${escapeHtml(asJson(response)['description'] ?? '')}</p>` +
      `${contentSection(asJson(response)['content'], schemas)}</div>`
    );
  });
  return `<h4>Respostas</h4>${rows.join('')}`;
}

function operationSection(operation: Operation, schemas: Json): string {
  const { op } = operation;
  const isPublic = Array.isArray(op['security']) && op['security'].length === 0;
  return (
    `<section class="operation" id="${operationAnchor(operation)}">` +
    `<h3><span class="method ${operation.method}">${operation.method.toUpperCase()}</span> <code class="path">${escapeHtml(operation.path)}</code></h3>` +
    `<p class="summary">${escapeHtml(op['summary'] ?? '')}</p>` +
    (op['description'] ? `<p>${escapeHtml(op['description'])}</p>` : '') +
    `<p class="auth">${isPublic ? 'Pública (sem chave).' : 'Exige <code>Authorization: Bearer &lt;chave&gt;</code>.'}` +
    ` operationId <code>${escapeHtml(op['operationId'] ?? '')}</code></p>` +
    parametersSection(op) +
    requestSection(op, schemas) +
    responsesSection(op, schemas) +
    `</section>`
  );
}

function groupByTag(operations: Operation[]): Map<string, Operation[]> {
  const groups = new Map<string, Operation[]>();
  for (const operation of operations) {
    const tag = String(asArray(operation.op['tags'])[0] ?? 'Outros');
    groups.set(tag, [...(groups.get(tag) ?? []), operation]);
  }
  return groups;
}

/** The whole reference page for an OpenAPI 3.1 document. */
export function renderReferencePage(document: Json): string {
  const info = asJson(document['info']);
  const schemas = asJson(asJson(document['components'])['schemas']);
  const groups = groupByTag(operationsOf(document));
  const nav = [...groups]
    .map(
      ([tag, ops]) =>
        `<li>${escapeHtml(tag)}<ul>${ops
          .map((op) => `<li><a href="#${operationAnchor(op)}"><span class="m">${op.method.toUpperCase()}</span> ${escapeHtml(op.path)}</a></li>`)
          .join('')}</ul></li>`,
    )
    .join('');
  const sections = [...groups]
    .map(([tag, ops]) => `<h2 id="tag-${escapeHtml(tag.replace(/\W+/g, '-'))}">${escapeHtml(tag)}</h2>${ops.map((op) => operationSection(op, schemas)).join('')}`)
    .join('');
  const schemaSections = Object.entries(schemas)
    .map(([name, schema]) => {
      const example = asJson(schema)['example'];
      return (
        `<section class="schema" id="${schemaAnchor(name)}"><h3>${escapeHtml(name)}</h3>` +
        (asJson(schema)['description'] ? `<p>${escapeHtml(asJson(schema)['description'])}</p>` : '') +
        propertiesTable(schema) +
        (example !== undefined ? exampleBlock('Exemplo', example) : '') +
        `</section>`
      );
    })
    .join('');
  const servers = asArray(document['servers']).map((server) => `<code>${escapeHtml(server['url'])}</code>`).join(', ');
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(info['title'] ?? 'API')} — referência</title><style>${REFERENCE_CSS}</style></head>
<body><nav><p class="brand">${escapeHtml(info['title'] ?? 'API')}</p><ul>${nav}<li><a href="#schemas">Esquemas</a></li></ul></nav>
<main><h1>${escapeHtml(info['title'] ?? 'API')} <small>versão ${escapeHtml(info['version'] ?? '')}</small></h1>
<p>${escapeHtml(info['description'] ?? '')}</p>
<p>Servidor: ${servers}. Documento OpenAPI: <a href="/v1/openapi.json">/v1/openapi.json</a>.</p>
<p>Erros sempre têm o corpo <a href="#${schemaAnchor('Error')}">Error</a>: <code>{"error": {"type", "message", "code", "param"}}</code>; <code>param</code> nomeia o campo com problema.</p>
${sections}<h2 id="schemas">Esquemas</h2>${schemaSections}</main></body></html>`;
}
