import { AppError } from '@orquestra/platform';

/**
 * What a merchant has before the owner sets anything: payouts by API off (spec §5.5: the owner turns
 * them on), and a daily limit of R$ 10.000,00 per São Paulo calendar day per mode. The limit is a
 * safety net against a leaked key or a runaway integration draining the provider balance, not a
 * business cap: large enough for a small company's daily transfers to its own account, small enough
 * that one bad day is recoverable; the owner raises it with `npm run owner -- payouts limit <cents>`.
 */
export const DEFAULT_PAYOUT_SETTINGS = { api_enabled: false, daily_limit: 1_000_000 } as const;

/** A limit in cents: a whole number ≥ 1 (turning payouts off is `api_enabled: false`, not a zero limit). */
export function checkDailyLimit(cents: number): number {
  if (!Number.isSafeInteger(cents) || cents < 1) {
    throw new AppError('parameter_invalid', {
      param: 'daily_limit',
      message: 'O limite diário (daily_limit) deve ser um número inteiro de centavos maior ou igual a 1. Para bloquear os saques, desligue-os (api_enabled: false).',
    });
  }
  return cents;
}
