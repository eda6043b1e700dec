import { AppError, feeFor } from '@orquestra/platform';

/** The most parts one payment may carry (spec §8). */
export const MAX_SPLITS = 20;

export interface SplitRequest {
  subaccount_id: string;
  /** Exactly one of amount (cents of the gross) and percent_bps (hundredths of a percent of the gross). */
  amount?: number;
  percent_bps?: number;
}

export interface SplitPart {
  subaccount_id: string;
  amount: number;
}

const invalid = (param: string, message: string) => new AppError('parameter_invalid', { param, message });

/**
 * The parts in cents (spec §4 split rules). A percentage is of the gross and rounded DOWN to the
 * cent: a part is never more than its share, and what rounding leaves stays with the main account,
 * so the parts plus the main account's remainder are always exactly the amount — no cent made or
 * lost. Each part is at least 1 cent, a subaccount appears once, and the parts sum to less than the
 * amount (the fee check against the chosen account is `assertRoomForFee`).
 */
export function splitParts(amount: number, requests: readonly SplitRequest[]): SplitPart[] {
  if (requests.length > MAX_SPLITS) throw invalid('splits', `Informe no máximo ${MAX_SPLITS} divisões (splits) por pagamento.`);
  const seen = new Set<string>();
  const parts = requests.map((request, index): SplitPart => {
    const at = `splits[${index}]`;
    if (!request.subaccount_id) throw new AppError('parameter_missing', { param: `${at}.subaccount_id`, message: `Informe o id da subconta em ${at}.subaccount_id.` });
    if (seen.has(request.subaccount_id)) {
      throw invalid(`${at}.subaccount_id`, `A subconta ${request.subaccount_id} aparece mais de uma vez em splits: junte as partes dela em uma só divisão.`);
    }
    seen.add(request.subaccount_id);
    const hasAmount = request.amount !== undefined;
    const hasPercent = request.percent_bps !== undefined;
    if (hasAmount === hasPercent) throw invalid(at, `Cada divisão (${at}) deve ter exatamente um entre amount e percentage.`);
    if (hasAmount) {
      const part = request.amount as number;
      if (!Number.isSafeInteger(part) || part < 1) throw invalid(`${at}.amount`, `${at}.amount deve ser um número inteiro de centavos maior ou igual a 1.`);
      return { subaccount_id: request.subaccount_id, amount: part };
    }
    const bps = request.percent_bps as number;
    if (!Number.isSafeInteger(bps) || bps <= 0 || bps >= 10_000) {
      throw invalid(`${at}.percentage`, `${at}.percentage deve ser maior que 0 e menor que 100, com até duas casas decimais.`);
    }
    // Integer arithmetic: amount (≤ 2^53 / 10 000 in practice) × bps never loses a cent to floats.
    const part = Math.floor((amount * bps) / 10_000);
    if (part < 1) throw invalid(`${at}.percentage`, `${bps / 100}% de ${amount} centavos é menos de 1 centavo: aumente a porcentagem ou informe amount.`);
    return { subaccount_id: request.subaccount_id, amount: part };
  });
  const total = parts.reduce((sum, part) => sum + part.amount, 0);
  if (total >= amount) {
    throw invalid('splits', `As divisões somam ${total} centavos, e devem somar menos que o valor do pagamento (${amount}): a conta principal fica com o restante e paga as taxas.`);
  }
  return parts;
}

/**
 * The main account keeps the remainder and pays the fee (spec §2): the remainder must cover the
 * fee the chosen account charges for the method (its fee schedule; the provider's reported fee is
 * not known before the charge).
 */
export function assertRoomForFee(amount: number, parts: readonly SplitPart[], fee: { percent_bps: number; fixed: number } | undefined): void {
  if (!fee || parts.length === 0) return;
  const total = parts.reduce((sum, part) => sum + part.amount, 0);
  const expectedFee = feeFor(amount, fee);
  if (amount - total < expectedFee) {
    throw invalid(
      'splits',
      `As divisões somam ${total} centavos e deixam ${amount - total} para a conta principal, que paga a taxa de ${expectedFee} centavos deste pagamento: reduza as partes.`,
    );
  }
}
