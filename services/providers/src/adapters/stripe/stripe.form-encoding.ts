/**
 * Stripe's request bodies: `application/x-www-form-urlencoded` with bracket notation for nested
 * objects and arrays (`metadata[order_id]=42`, `payment_method_types[]=pix`), as its SDKs send them.
 */

export type FormValue = string | number | boolean | readonly FormValue[] | { readonly [key: string]: FormValue | undefined };

function flatten(prefix: string, value: FormValue | undefined, out: [string, string][]): void {
  if (value === undefined) return;
  if (Array.isArray(value)) {
    for (const item of value as readonly FormValue[]) flatten(`${prefix}[]`, item, out);
  } else if (typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) flatten(prefix ? `${prefix}[${key}]` : key, item, out);
  } else {
    out.push([prefix, String(value)]);
  }
}

/** `{a: {b: 'c'}, d: ['e']}` → `a[b]=c&d[]=e` (brackets left readable, as Stripe's SDKs send them). */
export function encodeForm(params: { readonly [key: string]: FormValue | undefined }): string {
  const pairs: [string, string][] = [];
  flatten('', params, pairs);
  const encode = (text: string) => encodeURIComponent(text).replace(/%5B/g, '[').replace(/%5D/g, ']');
  return pairs.map(([key, value]) => `${encode(key)}=${encode(value)}`).join('&');
}
