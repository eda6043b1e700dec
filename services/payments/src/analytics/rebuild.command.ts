import { connectDatabase, createLogger, ensureIndexes } from '@orquestra/platform';
import type { PaymentsConfig } from '../config';
import { registerPaymentModel } from '../db/payment.model';
import { AnalyticsLedger } from './analytics-ledger';
import { registerAnalyticsModels } from './analytics.model';
import { AnalyticsRebuild } from './rebuild';

/** `--merchant <id>` (or `--merchant=<id>`) limits the rebuild to one merchant. */
export function merchantArgument(args: string[]): string | undefined {
  const index = args.findIndex((arg) => arg === '--merchant' || arg.startsWith('--merchant='));
  const flag = args[index];
  if (flag === undefined) return undefined;
  const value = flag.includes('=') ? flag.slice('--merchant='.length) : args[index + 1];
  if (!value || value.startsWith('--')) throw new Error('--merchant needs a merchant id (acct_…)');
  return value;
}

/**
 * `npm run analytics:rebuild [-- --merchant <id>]` (or `node dist/services/payments/main.js
 * rebuild-analytics` in the payments image): recomputes the analytics contributions and buckets
 * from the payments (docs/analytics.md "Rebuild"). Safe while the service runs. Exit code 0 when
 * every bucket was set; 1 when some kept changing (run it again) or on failure.
 */
export async function rebuildAnalyticsCommand(config: PaymentsConfig, args: string[]): Promise<void> {
  const logger = createLogger({ service: `${config.SERVICE_NAME}-rebuild-analytics`, level: config.LOG_LEVEL });
  let db: Awaited<ReturnType<typeof connectDatabase>> | undefined;
  try {
    const merchantId = merchantArgument(args);
    db = await connectDatabase({ url: config.MONGO_URL, dbName: `${config.DB_PREFIX}${config.SERVICE_NAME}`, logger });
    const payments = registerPaymentModel(db);
    const models = registerAnalyticsModels(db);
    await ensureIndexes(db);
    const result = await new AnalyticsRebuild(payments, models, new AnalyticsLedger(models), logger).run({ merchantId });
    logger.info({ ...result, merchant_id: merchantId ?? 'all' }, result.buckets_unsettled === 0 ? 'analytics rebuild done' : 'analytics rebuild: some buckets kept changing; run it again');
    process.exitCode = result.buckets_unsettled === 0 ? 0 : 1;
  } catch (error) {
    logger.error({ err: (error as Error).message }, 'analytics rebuild failed; run it again (it starts over, safely)');
    process.exitCode = 1;
  } finally {
    await db?.close();
  }
}
