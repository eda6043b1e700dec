/**
 * A saved Pix key as the API shows it: enough to recognise one's own key, never the whole of it
 * (GET /payout-destinations and every payout's destination).
 *
 * @example
 * maskPixKey('email', 'financeiro@loja.com.br') // 'fi********@loja.com.br'
 * maskPixKey('cpf', '52998224725')              // '***.982.247-**'
 */
export type PixKeyType = 'cpf' | 'cnpj' | 'email' | 'phone' | 'evp';

export function maskPixKey(type: PixKeyType, key: string): string {
  switch (type) {
    case 'cpf': {
      const d = key.replace(/\D/g, '');
      return `***.${d.slice(3, 6)}.${d.slice(6, 9)}-**`;
    }
    case 'cnpj': {
      const d = key.replace(/\D/g, '');
      return `**.***.${d.slice(5, 8)}/${d.slice(8, 12)}-**`;
    }
    case 'email': {
      const at = key.lastIndexOf('@');
      if (at < 1) return '***';
      const local = key.slice(0, at);
      return `${local.slice(0, Math.min(2, local.length - 1))}${'*'.repeat(Math.max(1, local.length - 2))}${key.slice(at)}`;
    }
    case 'phone': {
      const d = key.replace(/\D/g, '');
      return `+${d.slice(0, 4)}*****${d.slice(-4)}`;
    }
    case 'evp':
      return `${key.slice(0, 8)}-****-****-****-********${key.slice(-4)}`;
  }
}
