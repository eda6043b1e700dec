import { AppError, parseTaxId } from '@orquestra/platform';

/** The Pix key types of the DICT (Banco Central's key directory). */
export const PIX_KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'evp'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export const LABEL_MAX = 60;
/** The DICT refuses e-mail keys longer than 77 characters. */
const EMAIL_MAX = 77;
const EMAIL = /^[^@\s]+@[^@\s]+\.[^@\s.]+$/;
/** A Brazilian mobile number: DDD (two digits, no zero) then 9 digits starting with 9. */
const PHONE_NATIONAL = /^[1-9]{2}9\d{8}$/;
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function isPixKeyType(value: string): value is PixKeyType {
  return (PIX_KEY_TYPES as readonly string[]).includes(value);
}

function invalidKey(message: string): AppError {
  return new AppError('parameter_invalid', { param: 'key', message });
}

/**
 * The key in the one form the DICT stores (digits of a CPF/CNPJ, lower-case e-mail and EVP,
 * `+55DDNNNNNNNNN` phone), so one key saved twice with different punctuation is found as the same.
 * Throws a Portuguese `parameter_invalid` (param `key_type` or `key`) when the key does not fit.
 */
export function normalizePixKey(keyType: string, key: string): { key_type: PixKeyType; key: string } {
  const type = keyType.trim().toLowerCase();
  if (!type) throw new AppError('parameter_missing', { param: 'key_type', message: 'Informe o tipo da chave Pix (key_type): cpf, cnpj, email, phone ou evp.' });
  if (!isPixKeyType(type)) {
    throw new AppError('parameter_invalid', { param: 'key_type', message: 'Tipo de chave Pix inválido. Use cpf, cnpj, email, phone ou evp.' });
  }
  const text = key.trim();
  if (!text) throw new AppError('parameter_missing', { param: 'key', message: 'Informe a chave Pix (key).' });
  switch (type) {
    case 'cpf':
    case 'cnpj': {
      const taxId = parseTaxId(text);
      if (!taxId || taxId.kind !== type) {
        throw invalidKey(type === 'cpf' ? 'CPF inválido. Informe os 11 dígitos de um CPF válido.' : 'CNPJ inválido. Informe os 14 caracteres de um CNPJ válido.');
      }
      return { key_type: type, key: taxId.value };
    }
    case 'email': {
      const email = text.toLowerCase();
      if (email.length > EMAIL_MAX || !EMAIL.test(email)) {
        throw invalidKey('E-mail inválido. Informe um e-mail como financeiro@empresa.com.br (até 77 caracteres).');
      }
      return { key_type: type, key: email };
    }
    case 'phone': {
      const digits = text.replace(/[\s().-]/g, '');
      const national = digits.startsWith('+55') ? digits.slice(3) : digits;
      if (!PHONE_NATIONAL.test(national)) {
        throw invalidKey('Celular inválido. Informe +55, o DDD e o número de 9 dígitos, por exemplo +5511987654321.');
      }
      return { key_type: type, key: `+55${national}` };
    }
    case 'evp': {
      const evp = text.toLowerCase();
      if (!EVP.test(evp)) throw invalidKey('Chave aleatória inválida. Informe o UUID da chave, por exemplo 123e4567-e89b-12d3-a456-426614174000.');
      return { key_type: type, key: evp };
    }
  }
}

/** The owner's name for the key: required, trimmed, at most 60 characters. */
export function normalizeLabel(label: string): string {
  const text = label.trim();
  if (!text) throw new AppError('parameter_missing', { param: 'label', message: 'Informe um nome para a chave Pix (label), por exemplo "Conta da empresa".' });
  if (text.length > LABEL_MAX) throw new AppError('parameter_invalid', { param: 'label', message: 'O nome da chave Pix (label) deve ter no máximo 60 caracteres.' });
  return text;
}
