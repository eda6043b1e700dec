import { cnpj, cpf } from 'cpf-cnpj-validator';

/**
 * Brazilian tax ids (CPF of a person, CNPJ of a company) by their check digits, through
 * `cpf-cnpj-validator` (Receita Federal's modulo-11 rules, repeated-digit numbers refused, and the
 * alphanumeric CNPJ of Nota Técnica RFB 49/2024, issued from July 2026).
 *
 * The library also refuses the well-known sample 123.456.789-09 (its check digits hold, but it is
 * nobody's CPF): test data uses real-format numbers such as 529.982.247-25.
 *
 * Two readings, because not every party takes the alphanumeric form yet:
 * - `parseTaxId`: any valid CPF or CNPJ, alphanumeric CNPJ included (letters upper-cased);
 * - `numericTaxId`: only the all-digit forms, for provider fields documented as digits (the Pix
 *   API's `cpf`/`cnpj`, Asaas `cpfCnpj`, Mercado Pago `identification.number`, Woovi `taxID`).
 */
export type TaxIdKind = 'cpf' | 'cnpj';

export interface TaxId {
  kind: TaxIdKind;
  /** Without punctuation: 11 digits, or 14 characters (12 digits or A–Z, then 2 check digits). */
  value: string;
}

const PUNCTUATION = /[.\-/\s]/g;

export function parseTaxId(text: string | undefined): TaxId | null {
  const value = (text ?? '').replace(PUNCTUATION, '').toUpperCase();
  if (/^\d{11}$/.test(value)) return cpf.isValid(value) ? { kind: 'cpf', value } : null;
  if (/^[0-9A-Z]{12}\d{2}$/.test(value)) return cnpj.isValid(value) ? { kind: 'cnpj', value } : null;
  return null;
}

/** A valid CPF or CNPJ in its all-digit form (punctuation allowed in `text`), else null. */
export function numericTaxId(text: string | undefined): TaxId | null {
  const parsed = parseTaxId(text);
  return parsed && /^\d+$/.test(parsed.value) ? parsed : null;
}

/**
 * The form a CPF/CNPJ is stored and looked up by: letters and digits only, upper case. For an
 * all-digit document it is its digits (what stores kept before the alphanumeric CNPJ), so records
 * and indexes written earlier keep matching. No check-digit test: for reading stored documents.
 */
export function taxIdKey(text: string | undefined): string {
  return (text ?? '').replace(/[^0-9A-Za-z]/g, '').toUpperCase();
}
