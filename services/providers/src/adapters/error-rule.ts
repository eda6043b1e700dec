/**
 * A row of a provider's own error table: what one of its error answers (a 4xx with its code)
 * means to us. What the wire says (no answer, 429, 5xx) is not a provider's to decide: the
 * one table in http/transport-errors.ts reads it before an adapter sees the answer.
 */
import type { ProviderError } from './provider-adapter';

export interface ErrorRule {
  kind: ProviderError['kind'];
  code: ProviderError['normalizedCode'];
  /** Whether another account may be tried: true when this one certainly did not act. */
  retryElsewhere: boolean;
}

export const rule = (kind: ErrorRule['kind'], code: ErrorRule['code'], retryElsewhere: boolean): ErrorRule => ({ kind, code, retryElsewhere });
