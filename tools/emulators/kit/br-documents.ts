/** CPF and CNPJ check digits, as the providers validate a payer's document (Asaas `cpfCnpj`, Efí `devedor`, Woovi `taxID`). */

function checkDigit(digits: number[], firstWeight: number, cycle: boolean): number {
  let weight = firstWeight;
  let sum = 0;
  for (const digit of digits) {
    sum += digit * weight;
    weight = weight === 2 && cycle ? 9 : weight - 1;
  }
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidCpf(cpf: string): boolean {
  if (!/^\d{11}$/.test(cpf) || /^(\d)\1{10}$/.test(cpf)) return false;
  const d = [...cpf].map(Number);
  return checkDigit(d.slice(0, 9), 10, false) === d[9] && checkDigit(d.slice(0, 10), 11, false) === d[10];
}

export function isValidCnpj(cnpj: string): boolean {
  if (!/^\d{14}$/.test(cnpj) || /^(\d)\1{13}$/.test(cnpj)) return false;
  const d = [...cnpj].map(Number);
  return checkDigit(d.slice(0, 12), 5, true) === d[12] && checkDigit(d.slice(0, 13), 6, true) === d[13];
}

/** The digits of a valid CPF or CNPJ (punctuation allowed), else undefined. */
export function documentDigits(text: string): string | undefined {
  const digits = text.replace(/[.\-/\s]/g, '');
  return isValidCpf(digits) || isValidCnpj(digits) ? digits : undefined;
}

/** 'BR:CPF' | 'BR:CNPJ' for a valid document (digits only), else undefined (Woovi's `taxID.type`). */
export function taxIdType(digits: string): 'BR:CPF' | 'BR:CNPJ' | undefined {
  if (isValidCpf(digits)) return 'BR:CPF';
  return isValidCnpj(digits) ? 'BR:CNPJ' : undefined;
}
