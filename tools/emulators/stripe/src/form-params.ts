/**
 * Reading Stripe's form-encoded parameters (`a[b][]=c`, parsed by qs into nested objects and
 * arrays, every leaf a string) with Stripe's validation answers: unknown parameters, bad integers,
 * booleans and metadata are 400 `invalid_request_error`s naming the parameter in bracket notation.
 */
import type { Request } from 'express';
import { stripeErrors } from './stripe-errors';

export type Params = Record<string, unknown>;

export const paramPath = (parent: string, key: string) => (parent ? `${parent}[${key}]` : key);

export function isPlainObject(value: unknown): value is Params {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parameters object at `path`, or `{}` when absent. */
export function objectParam(value: unknown, path: string): Params {
  if (value === undefined) return {};
  if (!isPlainObject(value)) throw stripeErrors.invalidValue(path, `Invalid object: ${path} must be a hash`);
  return value;
}

export function rejectUnknown(params: Params, allowed: readonly string[], parent = ''): void {
  for (const key of Object.keys(params)) {
    if (!allowed.includes(key)) throw stripeErrors.parameterUnknown(paramPath(parent, key));
  }
}

export function stringParam(value: unknown, path: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw stripeErrors.invalidValue(path, `Invalid string: ${path} must be a string`);
  return value;
}

export function requiredString(value: unknown, path: string): string {
  const text = stringParam(value, path);
  if (text === undefined || text === '') throw stripeErrors.parameterMissing(path);
  return text;
}

export function integerParam(value: unknown, path: string): number | undefined {
  const text = stringParam(value, path);
  if (text === undefined) return undefined;
  if (!/^-?\d{1,15}$/.test(text)) throw stripeErrors.invalidInteger(path, text);
  return Number(text);
}

export function booleanParam(value: unknown, path: string): boolean | undefined {
  const text = stringParam(value, path);
  if (text === undefined) return undefined;
  if (text !== 'true' && text !== 'false') throw stripeErrors.invalidValue(path, `Invalid boolean: ${text}`);
  return text === 'true';
}

/** `x[]=a&x[]=b` (or `x[0]=a`) → `['a', 'b']`. */
export function stringArrayParam(value: unknown, path: string): string[] | undefined {
  if (value === undefined) return undefined;
  const items = Array.isArray(value) ? value : isPlainObject(value) ? Object.values(value) : undefined;
  if (!items || !items.every((item): item is string => typeof item === 'string')) {
    throw stripeErrors.invalidValue(path, `Invalid array: ${path} must be an array of strings`);
  }
  return items;
}

/** Stripe's metadata limits: ≤ 50 keys, keys ≤ 40 characters without brackets, values ≤ 500 characters. */
export function metadataParam(value: unknown): Record<string, string> {
  const params = objectParam(value, 'metadata');
  const entries = Object.entries(params);
  if (entries.length > 50) {
    throw stripeErrors.invalidValue('metadata', `Invalid metadata: metadata can have up to 50 keys, but you passed in ${entries.length} keys.`);
  }
  const metadata: Record<string, string> = {};
  for (const [key, raw] of entries) {
    const text = stringParam(raw, `metadata[${key}]`) ?? '';
    if (key.length > 40) throw stripeErrors.invalidValue(`metadata[${key}]`, 'Invalid metadata: keys can be at most 40 characters long.');
    if (text.length > 500) throw stripeErrors.invalidValue(`metadata[${key}]`, 'Invalid metadata: values can be at most 500 characters long.');
    // An empty value unsets a key; on create it simply is not stored.
    if (text !== '') metadata[key] = text;
  }
  return metadata;
}

/** `expand[]` from the form body (POST) or the query string (GET; Express 5 leaves `expand[]` as a flat key). */
export function expandList(req: Request): string[] {
  const fromBody = isPlainObject(req.body) ? stringArrayParam(req.body['expand'], 'expand') ?? [] : [];
  const fromQuery: string[] = [];
  for (const [key, value] of Object.entries(req.query as Record<string, unknown>)) {
    if (!/^expand(\[\d*\])?$/.test(key)) continue;
    for (const item of Array.isArray(value) ? value : [value]) if (typeof item === 'string') fromQuery.push(item);
  }
  return [...fromBody, ...fromQuery];
}

/** The query parameter `name` (first value) as a string. */
export function queryString(req: Request, name: string): string | undefined {
  const value = (req.query as Record<string, unknown>)[name];
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}
