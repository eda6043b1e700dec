import type { analytics as analyticsContract } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import { scopeOf } from '../grpc/payments.handlers';
import type { AnalyticsOverview } from './overview';

type AnalyticsHandlers = Handlers<typeof analyticsContract.AnalyticsServiceService>;

export function analyticsHandlers(overview: AnalyticsOverview): AnalyticsHandlers {
  return {
    async getOverview(request) {
      const scope = scopeOf(request.caller);
      // The figures cover all the merchant's payments; a restricted key sees only its own payments.
      if (scope.restrictedKeyId) throw new AppError('restricted_key');
      return overview.get(scope, request.start_date, request.end_date);
    },
  };
}
