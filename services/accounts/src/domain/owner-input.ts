import { AppError } from '@orquestra/platform';

/** An e-mail as stored: trimmed, lower case; refuses what cannot be one. */
export function checkEmail(email: string): string {
  const address = email.trim().toLowerCase();
  if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address) || address.length > 254) {
    throw new AppError('parameter_invalid', { param: 'email', message: 'E-mail inválido. Informe um e-mail como nome@empresa.com.br.' });
  }
  return address;
}

export function checkMerchantName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new AppError('parameter_missing', { param: 'merchant_name', message: 'Informe o nome da empresa (merchant_name).' });
  if (trimmed.length > 100) throw new AppError('parameter_invalid', { param: 'merchant_name', message: 'O nome da empresa (merchant_name) deve ter até 100 caracteres.' });
  return trimmed;
}
