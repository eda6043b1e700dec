// Turns OpenAPI 3.1 schema objects into small pieces of HTML for the reference page.
// Everything that comes from the document goes through `escapeHtml`.

export type Json = Record<string, unknown>;

export function escapeHtml(text: unknown): string {
  return String(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const REF_PREFIX = '#/components/schemas/';

export function refName(ref: string): string {
  return ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : ref;
}

export function schemaAnchor(name: string): string {
  return `schema-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A one-line type: `string`, `integer | null`, a link to a named schema, `array<Refund>`… */
export function typeLabel(schema: unknown): string {
  if (!isObject(schema)) return 'any';
  if (typeof schema['$ref'] === 'string') {
    const name = refName(schema['$ref']);
    return `<a href="#${schemaAnchor(name)}">${escapeHtml(name)}</a>`;
  }
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.map(typeLabel).join(key === 'allOf' ? ' &amp; ' : ' | ');
  }
  if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema['const']))}</code>`;
  if (Array.isArray(schema['enum'])) return schema['enum'].map((value) => `<code>${escapeHtml(String(value))}</code>`).join(' | ');
  const types = Array.isArray(schema['type']) ? (schema['type'] as string[]) : [schema['type'] as string | undefined];
  return types
    .map((type) => {
      if (type === 'array') return `array&lt;${typeLabel(schema['items'])}&gt;`;
      if (type === 'object' && isObject(schema['additionalProperties']) && !isObject(schema['properties'])) {
        return `map&lt;string, ${typeLabel(schema['additionalProperties'])}&gt;`;
      }
      if (type === undefined) return 'any';
      return escapeHtml(schema['format'] ? `${type} (${String(schema['format'])})` : type);
    })
    .join(' | ');
}

const CONSTRAINTS: Array<[string, string]> = [
  ['minimum', 'mín.'],
  ['maximum', 'máx.'],
  ['exclusiveMinimum', 'maior que'],
  ['minLength', 'mín. caracteres'],
  ['maxLength', 'máx. caracteres'],
  ['minItems', 'mín. itens'],
  ['maxItems', 'máx. itens'],
  ['maxProperties', 'máx. chaves'],
  ['multipleOf', 'múltiplo de'],
  ['pattern', 'padrão'],
  ['default', 'padrão'],
];

/** "mín. 1 · máx. 100 · padrão 10" for the limits a schema declares. */
export function constraintsOf(schema: unknown): string {
  if (!isObject(schema)) return '';
  return CONSTRAINTS.filter(([key]) => schema[key] !== undefined)
    .map(([key, label]) => `${label} <code>${escapeHtml(typeof schema[key] === 'string' ? schema[key] : JSON.stringify(schema[key]))}</code>`)
    .join(' · ');
}

/** The properties of an object schema as a table (or the type line when it is not an object). */
export function propertiesTable(schema: unknown): string {
  if (!isObject(schema) || !isObject(schema['properties'])) {
    return `<p class="type">Tipo: ${typeLabel(schema)} ${constraintsOf(schema)}</p>`;
  }
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  const rows = Object.entries(schema['properties']).map(([name, property]) => {
    const description = isObject(property) && property['description'] ? escapeHtml(property['description']) : '';
    return (
      `<tr><td><code>${escapeHtml(name)}</code>${required.has(name) ? ' <span class="req">obrigatório</span>' : ''}</td>` +
      `<td>${typeLabel(property)}</td><td>${description}${description && constraintsOf(property) ? '<br>' : ''}${constraintsOf(property)}</td></tr>`
    );
  });
  const closed = schema['additionalProperties'] === false ? '<p class="note">Campos não listados são recusados.</p>' : '';
  return `<table><thead><tr><th>Campo</th><th>Tipo</th><th>Descrição</th></tr></thead><tbody>${rows.join('')}</tbody></table>${closed}`;
}

export function exampleBlock(title: string, value: unknown): string {
  return `<details open><summary>${escapeHtml(title)}</summary><pre>${escapeHtml(JSON.stringify(value, null, 2))}</pre></details>`;
}
