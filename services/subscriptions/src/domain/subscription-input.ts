/**
 * The domain rules of a `POST /subscriptions` body, checked before anything is created so bad
 * input never leaves a half-made subscription. The gateway's schema checks JSON shapes and types;
 * these are the rules of the subscription itself. The first field refused is returned, with the
 * Portuguese message the API answers.
 */
import { numericTaxId, parseTaxId } from '@orquestra/platform';
import { isCalendarDate, type CalendarDate } from './calendar-date';
import { FREQUENCIES, isFrequency, type Frequency } from './cycle-schedule';
import { accept, refuse, type Validated } from './input-error';

/** Spec §8: amounts are at least 1 cent. The ceiling is the gateway's payment MAX_AMOUNT (R$ 1 bilhão). */
export const AMOUNT_LIMITS = { min: 1, max: 100_000_000_000 } as const;

/**
 * Metadata is copied to every cycle, and a cycle is a payment, so the payment limits of spec §8
 * apply (the same numbers as the gateway's METADATA_LIMITS).
 */
export const METADATA_LIMITS = { maxKeys: 50, maxKeyLength: 40, maxValueLength: 500 } as const;

/** Banco Central's `vinculo.objeto` (the text the payer's bank app shows) and `devedor.nome`. */
export const DESCRIPTION_MAX_LENGTH = 35;
export const CUSTOMER_NAME_MAX_LENGTH = 140;

export interface CreateSubscriptionInput {
  customer?: { name?: string; document?: string };
  frequency?: string;
  /** Omitted (or null): a variable amount, set per cycle by `POST /subscriptions/{id}/charge`. */
  amount?: number | null;
  first_amount?: number;
  description?: string;
  start_date?: string;
  end_date?: string;
  retry?: boolean;
  metadata?: Record<string, string>;
}

export interface SubscriptionTerms {
  customer: { name: string; document: string; document_kind: 'cpf' | 'cnpj' };
  frequency: Frequency;
  amount: number | null;
  first_amount: number;
  description: string | null;
  start_date: CalendarDate;
  end_date: CalendarDate | null;
  retry: boolean;
  metadata: Record<string, string>;
}

/** Checks `input` against `today` (São Paulo's date) and fills the defaults. */
export function validateSubscriptionInput(input: CreateSubscriptionInput, today: CalendarDate): Validated<SubscriptionTerms> {
  const name = input.customer?.name?.trim() ?? '';
  if (name === '') return refuse('parameter_missing', 'customer.name', 'Informe o nome do cliente em customer.name: o banco do pagador o mostra na autorização.');
  if (name.length > CUSTOMER_NAME_MAX_LENGTH) {
    return refuse('parameter_invalid', 'customer.name', `O campo customer.name aceita no máximo ${CUSTOMER_NAME_MAX_LENGTH} caracteres. Abrevie o nome.`);
  }
  if (input.customer?.document === undefined || input.customer.document.trim() === '') {
    return refuse('parameter_missing', 'customer.document', 'Informe o CPF ou CNPJ do cliente em customer.document: o Pix Automático exige o documento do pagador.');
  }
  // The Pix API's `devedor.cpf|cnpj` take digits: the alphanumeric CNPJ is not accepted there yet.
  const document = numericTaxId(input.customer.document);
  if (!document && parseTaxId(input.customer.document)) {
    return refuse(
      'parameter_invalid',
      'customer.document',
      'O Pix Automático ainda não aceita o CNPJ alfanumérico em customer.document: informe o CPF do pagador ou um CNPJ só com dígitos.',
    );
  }
  if (!document) {
    return refuse('parameter_invalid', 'customer.document', 'O campo customer.document não é um CPF (11 dígitos) nem um CNPJ (14 dígitos) válido: confira os dígitos verificadores.');
  }

  if (input.frequency === undefined) return refuse('parameter_missing', 'frequency', `Informe frequency: um entre ${FREQUENCIES.join(', ')}.`);
  if (!isFrequency(input.frequency)) return refuse('parameter_invalid', 'frequency', `O campo frequency deve ser um entre ${FREQUENCIES.join(', ')}.`);

  const amount = input.amount ?? null;
  if (amount !== null) {
    const refused = checkAmount(amount, 'amount');
    if (refused) return refused;
  }
  if (input.first_amount === undefined && amount === null) {
    return refuse('parameter_missing', 'first_amount', 'Sem amount (valor variável), informe first_amount: o valor em centavos do primeiro pagamento, feito na aprovação.');
  }
  const firstAmount = input.first_amount ?? (amount as number);
  const refusedFirst = checkAmount(firstAmount, 'first_amount');
  if (refusedFirst) return refusedFirst;

  const description = input.description?.trim() || null;
  if (description !== null && description.length > DESCRIPTION_MAX_LENGTH) {
    return refuse('parameter_invalid', 'description', `O campo description aceita no máximo ${DESCRIPTION_MAX_LENGTH} caracteres (é o texto que o banco do pagador mostra). Encurte a descrição.`);
  }

  const startDate = input.start_date ?? today;
  if (!isCalendarDate(startDate)) return refuse('parameter_invalid', 'start_date', 'O campo start_date deve ser uma data no formato AAAA-MM-DD.');
  if (startDate < today) return refuse('parameter_invalid', 'start_date', `O campo start_date não pode estar no passado. Use ${today} ou uma data posterior, ou omita-o para começar hoje.`);
  const endDate = input.end_date ?? null;
  if (endDate !== null) {
    if (!isCalendarDate(endDate)) return refuse('parameter_invalid', 'end_date', 'O campo end_date deve ser uma data no formato AAAA-MM-DD.');
    if (endDate <= startDate) return refuse('parameter_invalid', 'end_date', `O campo end_date deve ser posterior a start_date (${startDate}). Omita-o para uma assinatura sem data de término.`);
  }

  const metadata = input.metadata ?? {};
  const refusedMetadata = checkMetadata(metadata);
  if (refusedMetadata) return refusedMetadata;

  return accept({
    customer: { name, document: document.value, document_kind: document.kind },
    frequency: input.frequency,
    amount,
    first_amount: firstAmount,
    description,
    start_date: startDate,
    end_date: endDate,
    retry: input.retry ?? true,
    metadata,
  });
}

function checkAmount(value: number, param: 'amount' | 'first_amount') {
  if (!Number.isInteger(value)) return refuse('parameter_invalid', param, `O campo ${param} deve ser um número inteiro de centavos (R$ 19,90 = 1990).`);
  if (value < AMOUNT_LIMITS.min) return refuse('amount_too_small', param, `O campo ${param} deve ser de pelo menos ${AMOUNT_LIMITS.min} centavo.`);
  if (value > AMOUNT_LIMITS.max) return refuse('parameter_invalid', param, `O campo ${param} aceita no máximo ${AMOUNT_LIMITS.max} centavos (R$ 1 bilhão).`);
  return null;
}

function checkMetadata(metadata: Record<string, string>) {
  const keys = Object.keys(metadata);
  if (keys.length > METADATA_LIMITS.maxKeys) {
    return refuse('metadata_invalid', 'metadata', `O campo metadata aceita no máximo ${METADATA_LIMITS.maxKeys} chaves (recebidas: ${keys.length}). Remova as chaves excedentes.`);
  }
  for (const key of keys) {
    if (key.length === 0 || key.length > METADATA_LIMITS.maxKeyLength) {
      return refuse('metadata_invalid', 'metadata', `As chaves de metadata devem ter de 1 a ${METADATA_LIMITS.maxKeyLength} caracteres; a chave "${key.slice(0, 60)}" tem ${key.length}. Use uma chave mais curta.`);
    }
    const value = metadata[key];
    if (typeof value !== 'string' || value.length > METADATA_LIMITS.maxValueLength) {
      return refuse('metadata_invalid', `metadata.${key}`, `O valor de metadata.${key} deve ser um texto de até ${METADATA_LIMITS.maxValueLength} caracteres.`);
    }
  }
  return null;
}
