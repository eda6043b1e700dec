/** Reading request fields (numbers arrive as their source text, see json-body.ts). */
import { asaasErrors } from './asaas-errors';

export type Body = Record<string, unknown>;

export function asBody(value: unknown): Body {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw asaasErrors.invalidJson();
  return value as Body;
}

/** An optional string field of at most `max` characters; `null` counts as absent. */
export function optionalString(body: Body, field: string, max: number): string | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > max) {
    throw asaasErrors.invalid(field, `O campo ${field} deve ser um texto de até ${max} caracteres.`);
  }
  return value;
}

export function requiredString(body: Body, field: string, max: number): string {
  const value = optionalString(body, field, max);
  if (value === undefined || value.trim() === '') throw asaasErrors.invalid(field, `O campo ${field} deve ser informado.`);
  return value;
}

export function optionalBoolean(body: Body, field: string): boolean | undefined {
  const value = body[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw asaasErrors.invalid(field, `O campo ${field} deve ser verdadeiro ou falso.`);
  return value;
}

/** A query-string parameter, when given once. */
export function queryParam(query: Record<string, unknown>, name: string): string | undefined {
  const value = query[name];
  return typeof value === 'string' ? value : undefined;
}
