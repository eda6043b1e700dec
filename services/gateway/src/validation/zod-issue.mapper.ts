import { AppError, isErrorCode, type ErrorCode } from '@orquestra/platform';
import type { ZodError, ZodIssue, ZodTypeAny, z } from 'zod';
import { fieldHint, type FieldHints } from './field-hints.pt-br';

/** Where the validated value came from; it names the thing in the message. */
export type RequestSource = 'body' | 'query' | 'header';

const NOUN: Record<RequestSource, { the: string }> = {
  body: { the: 'O campo' },
  query: { the: 'O parâmetro' },
  header: { the: 'O cabeçalho' },
};

const TYPE_NAMES_PT_BR: Record<string, string> = {
  string: 'um texto',
  number: 'um número',
  integer: 'um número inteiro',
  float: 'um número com casas decimais',
  boolean: 'verdadeiro ou falso',
  object: 'um objeto',
  array: 'uma lista',
  null: 'null',
  nan: 'um valor não numérico',
  date: 'uma data',
};

/** A zod type name in Portuguese; an enum's expected type arrives as `'a' | 'b'`. */
function typeName(type: string): string {
  if (type.includes(' | ')) return `um destes valores: ${type.replace(/'/g, '').split(' | ').join(', ')}`;
  return TYPE_NAMES_PT_BR[type] ?? type;
}

/** The public name of a field: dotted, with array indexes in brackets (`splits[0].amount`). */
export function paramOf(path: ReadonlyArray<string | number>): string | undefined {
  let param = '';
  for (const segment of path) {
    param += typeof segment === 'number' ? `[${segment}]` : param ? `.${segment}` : segment;
  }
  return param || undefined;
}

/**
 * Parses `input` with `schema` or throws the AppError for its first problem. `hints` are what-to-do
 * texts for this operation's fields; they win over the shared ones (`method` is optional on a
 * payment but required in a routing simulation, so the advice differs).
 */
export function parseOrThrow<S extends ZodTypeAny>(schema: S, input: unknown, source: RequestSource, hints?: FieldHints): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) throw appErrorFromZod(result.error, source, { input, ...(hints ? { hints } : {}) });
  return result.data;
}

/** The value at a zod path of the parsed input (undefined when absent or unreachable). */
function valueAt(input: unknown, path: ReadonlyArray<string | number>): unknown {
  let node = input;
  for (const segment of path) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string | number, unknown>)[segment];
  }
  return node;
}

/**
 * A refinement may choose its error code through `params: { code }` (for example
 * `parameter_missing` for "send at least one field"); otherwise the usual rules apply.
 */
function customCode(issue: ZodIssue): ErrorCode | undefined {
  if (issue.code !== 'custom') return undefined;
  const code: unknown = issue.params?.['code'];
  return typeof code === 'string' && isErrorCode(code) ? code : undefined;
}

/**
 * One validation failure → one AppError: the first issue, with `param` = its dotted path and a
 * Portuguese message that names the field and says what to do. Codes: absent field →
 * `parameter_missing`; `amount` below 1 → `amount_too_small`; anything under `metadata` →
 * `metadata_invalid`; everything else → `parameter_invalid`.
 */
export function appErrorFromZod(
  error: ZodError,
  source: RequestSource,
  context: { input?: unknown; hints?: FieldHints } = {},
): AppError {
  const issue = error.issues[0];
  if (!issue) return new AppError('invalid_request');
  const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
  const param = paramOf(path);
  // A discriminator that is absent is a missing field, not a wrong one.
  const absent = 'input' in context && valueAt(context.input, path) === undefined;
  if (param === undefined) {
    // A whole-body refinement with our own message ("send at least one field") keeps it.
    const code = customCode(issue);
    if (issue.code === 'custom' && code) return new AppError(code, { message: issue.message });
    return new AppError('invalid_request', {
      message:
        source === 'body'
          ? 'O corpo da requisição deve ser um objeto JSON com os campos da operação. Consulte /v1/openapi.json.'
          : 'Requisição inválida. Consulte /v1/openapi.json.',
    });
  }
  // An unknown tracking key is an error of the tracking object (spec: param tracking); the
  // message names the key.
  const unknownTrackingKey = issue.code === 'unrecognized_keys' && issue.path[issue.path.length - 1] === 'tracking';
  return new AppError(codeFor(issue, path, absent), {
    param: unknownTrackingKey ? (paramOf(issue.path) ?? param) : param,
    message: messageFor(issue, param, source, absent, context.hints),
  });
}

function codeFor(issue: ZodIssue, path: ReadonlyArray<string | number>, absent: boolean): ErrorCode {
  if (path[0] === 'metadata') return 'metadata_invalid';
  const chosen = customCode(issue);
  if (chosen) return chosen;
  if (issue.code === 'invalid_type' && issue.received === 'undefined') return 'parameter_missing';
  if (issue.code === 'invalid_union_discriminator' && absent) return 'parameter_missing';
  if (path.length === 1 && path[0] === 'amount' && issue.code === 'too_small') return 'amount_too_small';
  return 'parameter_invalid';
}

function messageFor(issue: ZodIssue, param: string, source: RequestSource, absent: boolean, hints?: FieldHints): string {
  const { the } = NOUN[source];
  const parent = param.includes('.') ? param.slice(0, param.lastIndexOf('.')) : undefined;
  const hint = issue.code === 'unrecognized_keys' ? (parent ? fieldHint(parent, hints) : undefined) : fieldHint(param, hints);
  const tail = hint ? ` ${hint}` : '';
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined') return `${the} ${param} é obrigatório.${tail}`;
      if (issue.received === 'null') return `${the} ${param} não pode ser null.${tail}`;
      return `${the} ${param} deve ser ${typeName(issue.expected)} (recebido: ${typeName(issue.received)}).${tail}`;
    case 'too_small':
      if (issue.type === 'string') return `${the} ${param} deve ter pelo menos ${String(issue.minimum)} caractere(s).${tail}`;
      if (issue.type === 'array') return `${the} ${param} deve ter pelo menos ${String(issue.minimum)} item(ns).${tail}`;
      return `${the} ${param} deve ser maior ${issue.inclusive ? 'ou igual a' : 'que'} ${String(issue.minimum)}.${tail}`;
    case 'too_big':
      if (issue.type === 'string') return `${the} ${param} deve ter no máximo ${String(issue.maximum)} caracteres.${tail}`;
      if (issue.type === 'array') return `${the} ${param} deve ter no máximo ${String(issue.maximum)} itens.${tail}`;
      return `${the} ${param} deve ser menor ${issue.inclusive ? 'ou igual a' : 'que'} ${String(issue.maximum)}.${tail}`;
    case 'invalid_enum_value':
      return `${the} ${param} deve ser um destes valores: ${issue.options.join(', ')}.`;
    case 'invalid_union_discriminator':
      return absent
        ? `${the} ${param} é obrigatório. Use um destes valores: ${issue.options.map(String).join(', ')}.`
        : `${the} ${param} deve ser um destes valores: ${issue.options.map(String).join(', ')}.`;
    case 'invalid_literal':
      return `${the} ${param} deve ser ${JSON.stringify(issue.expected)}.${tail}`;
    case 'unrecognized_keys':
      return parent === 'tracking'
        ? `A chave ${param} não é aceita.${tail}`
        : `${the} ${param} não existe. Remova-o; os campos aceitos estão em /v1/openapi.json.`;
    case 'not_multiple_of':
      return `${the} ${param} deve ser múltiplo de ${String(issue.multipleOf)}.${tail}`;
    case 'custom':
      // Our refinements carry their own Portuguese message; zod's default means we forgot one.
      return issue.message && issue.message !== 'Invalid input' ? issue.message : `${the} ${param} é inválido.${tail}`;
    default:
      return `${the} ${param} é inválido.${tail}`;
  }
}
