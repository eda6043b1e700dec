/**
 * JSON with exact money. Asaas writes amounts as decimal JSON numbers in reais (`"value": 100.90`),
 * so the emulator reads every number as the text it was written with and writes amounts from
 * integer cents; no amount ever goes through a binary float.
 */

/** An amount in integer cents that serializes as a JSON number in reais (`1990` → `19.90`). */
export class Reais {
  constructor(readonly cents: number) {}
}

export function centsToReaisText(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const digits = String(Math.abs(cents)).padStart(3, '0');
  return `${sign}${digits.slice(0, -2)}.${digits.slice(-2)}`;
}

/** "12", "12.3", "12.34" → cents; anything else (more decimals, exponents, signs) → undefined. */
export function reaisTextToCents(text: string): number | undefined {
  const match = /^(0|[1-9]\d{0,12})(?:\.(\d{1,2}))?$/.exec(text);
  if (!match?.[1]) return undefined;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

/**
 * `JSON.parse` with every number left as its source text (`{"value":100.90}` → `{value:"100.90"}`).
 * Throws SyntaxError on invalid JSON, like JSON.parse.
 */
export function parseJsonNumbersAsText(text: string): unknown {
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

/** JSON.stringify, except that Reais values are written as exact decimal numbers. */
export function writeJson(value: unknown): string {
  if (value instanceof Reais) return centsToReaisText(value.cents);
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item) => writeJson(item)).join(',')}]`;
  const fields = Object.entries(value as Record<string, unknown>)
    .filter(([, field]) => field !== undefined)
    .map(([key, field]) => `${JSON.stringify(key)}:${writeJson(field)}`);
  return `{${fields.join(',')}}`;
}
