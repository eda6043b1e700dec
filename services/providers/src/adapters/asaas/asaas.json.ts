/**
 * JSON with exact decimal numbers. Asaas writes and reads amounts as JSON numbers in reais
 * (`"value": 100.90`); parsed by `JSON.parse` they would become binary floats. Here every number
 * of an answer is kept as the text it was written with, and request amounts are written from
 * integer cents as decimal text, so no amount ever passes through a float.
 */

/** A JSON number written verbatim (`new JsonDecimal('19.90')` → `19.90`). */
export class JsonDecimal {
  constructor(readonly text: string) {
    if (!/^-?(0|[1-9]\d*)(\.\d+)?$/.test(text)) throw new RangeError(`not a decimal number: ${text}`);
  }
}

/**
 * `JSON.parse` with every number left as its source text (`{"value":100.90}` → `{value:"100.90"}`).
 * Throws SyntaxError on invalid JSON, exactly when JSON.parse does.
 */
export function parseJsonExact(text: string): unknown {
  JSON.parse(text);
  let out = '';
  let i = 0;
  while (i < text.length) {
    const c = text.charAt(i);
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += text.slice(i, j + 1);
      i = j + 1;
    } else if (c === '-' || (c >= '0' && c <= '9')) {
      let j = i + 1;
      while (j < text.length && /[0-9eE.+-]/.test(text.charAt(j))) j += 1;
      out += `"${text.slice(i, j)}"`;
      i = j;
    } else {
      out += c;
      i += 1;
    }
  }
  return JSON.parse(out);
}

/** JSON.stringify, except that JsonDecimal values are written as their exact text. */
export function stringifyExact(value: unknown): string {
  if (value instanceof JsonDecimal) return value.text;
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => stringifyExact(item ?? null)).join(',')}]`;
  const fields = Object.entries(value as Record<string, unknown>)
    .filter(([, field]) => field !== undefined)
    .map(([key, field]) => `${JSON.stringify(key)}:${stringifyExact(field)}`);
  return `{${fields.join(',')}}`;
}
