import { AppError } from '@orquestra/platform';
import { ProviderError } from '../adapters/provider-adapter';
import { CycleChargeNotApplicableError } from '../adapters/provider-recurrences';

/**
 * ProviderError → the normalized error the caller's failover policy reads. `notFoundParam` names
 * the id the RPC was about (a charge, a recurrence, a cycle charge); a refusal naming one field
 * keeps its param and message.
 */
export function toAppError(error: unknown, notFoundParam: string): unknown {
  if (!(error instanceof ProviderError)) return error;
  if (error instanceof CycleChargeNotApplicableError) return new AppError('provider_rejected', { param: 'id', message: error.publicMessage });
  if (error.kind === 'not_found') return new AppError('not_found', { param: notFoundParam });
  if (error.kind === 'invalid_credentials') return new AppError('invalid_credentials');
  if (error.param) return new AppError('parameter_invalid', { param: error.param.name, message: error.param.publicMessage });
  return new AppError(error.normalizedCode === 'not_found' ? 'provider_error' : error.normalizedCode);
}

/** Runs a provider call, answering its failure as toAppError does. */
export async function guarded<T>(work: () => Promise<T>, notFoundParam: string): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toAppError(error, notFoundParam);
  }
}
