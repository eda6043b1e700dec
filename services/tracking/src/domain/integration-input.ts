/**
 * What each kind of integration takes (its credentials and options, GET /integration-kinds) and
 * the check of what a merchant sends on POST and PATCH /integrations: unknown kind or names,
 * missing required fields, malformed or too long values → `AppError` with the offending `param`
 * (`kind`, `credentials.access_token`, `options.pixel_id`) and a Portuguese message.
 */
import { AppError } from '@orquestra/platform';
import { INTEGRATION_KINDS, type IntegrationKindId, type KindField } from '../tools/ad-tool';

export interface FieldRule extends KindField {
  maxLength: number;
  /** What a valid value looks like, and the Portuguese text saying so. */
  pattern?: { regex: RegExp; text: string };
  /** Filled in on creation when absent. */
  defaultValue?: string;
}

export interface KindFields {
  credentials: FieldRule[];
  options: FieldRule[];
}

const testEventCode = (tool: string): FieldRule => ({
  name: 'test_event_code',
  label: 'Código de evento de teste',
  required: false,
  description: `Código do painel de eventos de teste do ${tool}. Sem ele, vendas de teste não são enviadas.`,
  maxLength: 64,
  pattern: { regex: /^[A-Za-z0-9_-]+$/, text: 'use apenas letras, números, _ e -' },
});

export const KIND_FIELDS: Record<IntegrationKindId, KindFields> = {
  utmify: {
    credentials: [
      { name: 'api_token', label: 'Token de API', required: true, description: 'Credencial de API criada no painel da ferramenta de atribuição (enviada no cabeçalho x-api-token).', maxLength: 256 },
    ],
    options: [
      {
        name: 'platform',
        label: 'Plataforma',
        required: false,
        description: 'Nome da plataforma mostrado nos pedidos (PascalCase). Padrão: Orquestra.',
        maxLength: 50,
        pattern: { regex: /^[A-Z][A-Za-z0-9]*$/, text: 'use PascalCase: letras e números, começando por maiúscula' },
        defaultValue: 'Orquestra',
      },
    ],
  },
  meta: {
    credentials: [
      { name: 'access_token', label: 'Token de acesso', required: true, description: 'Token de acesso da API de Conversões gerado no Gerenciador de Eventos.', maxLength: 2048 },
    ],
    options: [
      {
        name: 'pixel_id',
        label: 'ID do pixel',
        required: true,
        description: 'ID do pixel (conjunto de dados) no Gerenciador de Eventos, só números.',
        maxLength: 32,
        pattern: { regex: /^\d+$/, text: 'use apenas números' },
      },
      testEventCode('Meta'),
    ],
  },
  tiktok: {
    credentials: [
      { name: 'access_token', label: 'Token de acesso', required: true, description: 'Token de acesso da Events API gerado no Gerenciador de Eventos do TikTok.', maxLength: 2048 },
    ],
    options: [
      {
        name: 'pixel_code',
        label: 'Código do pixel',
        required: true,
        description: 'Código do pixel do TikTok (event_source_id).',
        maxLength: 64,
        pattern: { regex: /^[A-Za-z0-9]+$/, text: 'use apenas letras e números' },
      },
      testEventCode('TikTok'),
    ],
  },
};

export interface IntegrationInput {
  options?: Record<string, string>;
  credentials?: Record<string, string>;
}

export function isIntegrationKind(kind: unknown): kind is IntegrationKindId {
  return typeof kind === 'string' && (INTEGRATION_KINDS as readonly string[]).includes(kind);
}

const invalid = (param: string, message: string) => new AppError('parameter_invalid', { param, message });

function checkGroup(group: 'options' | 'credentials', rules: FieldRule[], given: unknown, partial: boolean): Record<string, string> {
  if (given !== undefined && (given === null || typeof given !== 'object' || Array.isArray(given))) {
    throw invalid(group, `${group} deve ser um objeto com textos.`);
  }
  const values = (given ?? {}) as Record<string, unknown>;
  const known = new Map(rules.map((rule) => [rule.name, rule]));
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    const rule = known.get(name);
    const param = `${group}.${name}`;
    if (!rule) {
      const accepted = rules.map((r) => r.name).join(', ') || 'nenhum';
      throw invalid(param, `Campo desconhecido: ${param}. Aceitos em ${group}: ${accepted}.`);
    }
    if (typeof value !== 'string') throw invalid(param, `${param} deve ser um texto.`);
    const trimmed = value.trim();
    if (trimmed.length === 0) {
      if (rule.required) throw new AppError('parameter_missing', { param, message: `Informe ${param}: ${rule.label.toLowerCase()} não pode ficar vazio.` });
      // An empty optional value clears it (PATCH) or is simply absent (creation).
      continue;
    }
    if (trimmed.length > rule.maxLength) throw invalid(param, `${param} aceita no máximo ${rule.maxLength} caracteres.`);
    if (rule.pattern && !rule.pattern.regex.test(trimmed)) throw invalid(param, `${param} inválido: ${rule.pattern.text}.`);
    out[name] = trimmed;
  }
  if (!partial) {
    for (const rule of rules) {
      if (out[rule.name] !== undefined) continue;
      if (rule.required) throw new AppError('parameter_missing', { param: `${group}.${rule.name}`, message: `Informe ${group}.${rule.name} (${rule.label.toLowerCase()}).` });
      if (rule.defaultValue !== undefined) out[rule.name] = rule.defaultValue;
    }
  }
  return out;
}

/**
 * The checked and trimmed input of a kind. `partial` (PATCH): only the fields given are checked
 * and returned, nothing is required and no default is added; an empty optional value is dropped
 * from the answer (the caller decides whether that clears it). Throws `AppError` on the first
 * problem.
 */
export function checkIntegrationInput(kind: unknown, input: IntegrationInput, { partial }: { partial: boolean }): { options: Record<string, string>; credentials: Record<string, string> } {
  if (!isIntegrationKind(kind)) {
    if (kind === undefined || kind === null || kind === '') throw new AppError('parameter_missing', { param: 'kind', message: `Informe kind: ${INTEGRATION_KINDS.join(', ')}.` });
    throw invalid('kind', `Tipo de integração desconhecido. Use um de: ${INTEGRATION_KINDS.join(', ')}.`);
  }
  const fields = KIND_FIELDS[kind];
  return {
    credentials: checkGroup('credentials', fields.credentials, input.credentials, partial),
    options: checkGroup('options', fields.options, input.options, partial),
  };
}

/** The last 4 characters of a credential, the only part ever shown (all of it when shorter than 8: then nothing). */
export function last4(value: string): string {
  // A very short secret would be half revealed by its last four: show none of it.
  return value.length >= 8 ? value.slice(-4) : '';
}
