import { numericTaxId } from '@orquestra/platform';

/**
 * CPF and CNPJ as the providers validate a payer's document (Asaas `cpfCnpj`, Efí `devedor`,
 * Woovi `taxID`): all-digit forms whose check digits hold (the platform's `numericTaxId`, through
 * cpf-cnpj-validator), like the services that send them.
 */

export function isValidCpf(cpf: string): boolean {
  return /^\d{11}$/.test(cpf) && numericTaxId(cpf) !== null;
}

export function isValidCnpj(cnpj: string): boolean {
  return /^\d{14}$/.test(cnpj) && numericTaxId(cnpj) !== null;
}

/** The digits of a valid CPF or CNPJ (punctuation allowed), else undefined. */
export function documentDigits(text: string): string | undefined {
  return numericTaxId(text)?.value;
}

/** 'BR:CPF' | 'BR:CNPJ' for a valid document (digits only), else undefined (Woovi's `taxID.type`). */
export function taxIdType(digits: string): 'BR:CPF' | 'BR:CNPJ' | undefined {
  if (isValidCpf(digits)) return 'BR:CPF';
  return isValidCnpj(digits) ? 'BR:CNPJ' : undefined;
}
