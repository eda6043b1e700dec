import { common, modeName } from '@orquestra/contracts';

const { Mode } = common;
import { AppError } from '@orquestra/platform';

export interface CallerScope {
  merchantId: string;
  mode: 'test' | 'live';
}

/** The caller's merchant and mode; `fullKeyOnly` refuses restricted keys (the gateway checks first). */
export function scopeOf(caller: common.Caller | undefined, options: { fullKeyOnly?: boolean } = {}): CallerScope {
  if (!caller || !caller.merchant_id) throw new AppError('unauthenticated');
  if (options.fullKeyOnly && caller.restricted) throw new AppError('restricted_key');
  return { merchantId: caller.merchant_id, mode: modeName(caller.mode) };
}

/** Internal callers (providers, the owner command) name the merchant and mode themselves: both required. */
export function scopeFor(merchantId: string, mode: common.Mode): CallerScope {
  if (!merchantId) throw new AppError('parameter_missing', { param: 'merchant_id' });
  if (mode !== Mode.MODE_TEST && mode !== Mode.MODE_LIVE) throw new AppError('parameter_invalid', { param: 'mode', message: 'Informe mode: test ou live.' });
  return { merchantId, mode: modeName(mode) };
}
