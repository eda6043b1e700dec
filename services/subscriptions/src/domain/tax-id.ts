/**
 * CPF and CNPJ check digits (modulo 11, Receita Federal's algorithm). The payer's document is
 * required by Pix Automático (`vinculo.devedor.cpf|cnpj`) and a bank refuses a recurrence whose
 * document does not verify, so a typo is caught here, before anything is created. Only the
 * numeric form: the Pix API's `cpf`/`cnpj` fields and the gateway's customer schema take digits.
 */

const SEPARATORS = /[.\-/\s]/g;

export type TaxIdKind = 'cpf' | 'cnpj';

/** The digits of a CPF (11) or CNPJ (14) whose check digits hold, or null. Punctuation is accepted. */
export function parseTaxId(value: string): { kind: TaxIdKind; digits: string } | null {
  const digits = value.replace(SEPARATORS, '');
  if (!/^(\d{11}|\d{14})$/.test(digits)) return null;
  // Repeated digits (000.000.000-00, 11.111.111/1111-11) satisfy the arithmetic but are never issued.
  if (/^(\d)\1+$/.test(digits)) return null;
  const numbers = [...digits].map(Number);
  if (digits.length === 11) {
    return checkDigit(numbers.slice(0, 9), cpfWeights(9)) === numbers[9] && checkDigit(numbers.slice(0, 10), cpfWeights(10)) === numbers[10]
      ? { kind: 'cpf', digits }
      : null;
  }
  return checkDigit(numbers.slice(0, 12), cnpjWeights(12)) === numbers[12] && checkDigit(numbers.slice(0, 13), cnpjWeights(13)) === numbers[13]
    ? { kind: 'cnpj', digits }
    : null;
}

/** CPF weights: n+1 down to 2. */
function cpfWeights(length: number): number[] {
  return Array.from({ length }, (_, i) => length + 1 - i);
}

/** CNPJ weights: 2 to 9 from the right, repeating (…, 5, 4, 3, 2, 9, 8, …, 2). */
function cnpjWeights(length: number): number[] {
  return Array.from({ length }, (_, i) => ((length - 1 - i) % 8) + 2);
}

function checkDigit(digits: number[], weights: number[]): number {
  const rest = digits.reduce((sum, digit, i) => sum + digit * (weights[i] ?? 0), 0) % 11;
  return rest < 2 ? 0 : 11 - rest;
}
