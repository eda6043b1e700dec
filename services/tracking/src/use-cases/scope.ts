import { common, modeName } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';

/** The merchant behind a call and the mode of its key. */
export interface CallerScope {
  merchantId: string;
  mode: 'test' | 'live';
}

/**
 * Integration routes take full keys only (spec §5.4: a restricted key gets `restricted_key`);
 * the gateway refuses first, this is the service's own guard.
 */
export function fullKeyScope(caller: common.Caller | undefined): CallerScope {
  if (!caller || !caller.merchant_id) throw new AppError('unauthenticated');
  if (caller.restricted) throw new AppError('restricted_key');
  return { merchantId: caller.merchant_id, mode: modeName(caller.mode) };
}

/** A mode given by an internal caller (the payment page through the gateway): test or live, nothing else. */
export function modeOf(mode: common.Mode): 'test' | 'live' {
  if (mode !== common.Mode.MODE_TEST && mode !== common.Mode.MODE_LIVE) {
    throw new AppError('parameter_invalid', { param: 'mode', message: 'Informe mode: test ou live.' });
  }
  return modeName(mode);
}
