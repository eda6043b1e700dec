import { feeFor } from '@orquestra/platform';

export interface FeeRule {
  method: string;
  percent_bps: number;
  fixed: number;
}

/**
 * Fee of a payment: the provider's reported fee when it gives one, else the account's schedule for
 * the method (percentage rounded half up to the cent, plus the fixed part), else zero.
 */
export function computeFee(amount: number, method: string, rules: FeeRule[], providerFee?: number): { fee: number; net: number } {
  const rule = rules.find((candidate) => candidate.method === method);
  const fee = providerFee !== undefined && providerFee >= 0 ? providerFee : rule ? feeFor(amount, rule) : 0;
  return { fee, net: amount - fee };
}
