import { chargeStatusFromProto, providers as providersContract } from '@orquestra/contracts';
import { DueWorker, type RpcClient } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { DueRecords } from '../db/due-records';
import type { OrphanChargeDoc } from '../db/orphan-charge.model';

const RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000];

/**
 * Resolves orphan charges as due work: repeating the attempt's CreateCharge with its idempotency
 * key returns the charge if it exists (and creates nothing twice), then the charge is removed: a
 * pending one canceled, a paid one refunded in full (no payment holds it). Retried with backoff
 * while the account is unreachable.
 */
export class OrphanCharges {
  readonly worker: DueWorker<OrphanChargeDoc>;

  constructor(
    private readonly records: DueRecords<OrphanChargeDoc>,
    private readonly providers: RpcClient<typeof providersContract.ProvidersServiceService>,
    private readonly logger: Logger,
    /**
     * Whether the payment now exists ON THIS ACCOUNT: a client retry under the same
     * Idempotency-Key after an uncertain create reuses the payment id, so the "orphan" may have
     * become that payment's own charge and must be left alone (db/idempotency.guard.ts). A payment
     * that succeeded on another account does not adopt it: that charge is still removed.
     */
    private readonly adoptedBy: (paymentId: string, accountId: string) => Promise<boolean> = async () => false,
  ) {
    this.worker = new DueWorker<OrphanChargeDoc>({
      name: 'orphan-charges',
      collection: records.collection,
      logger,
      pollIntervalMs: 2_000,
      handle: (orphan) => this.resolve(orphan),
    });
  }

  async record(paymentId: string, request: providersContract.CreateChargeRequest): Promise<void> {
    await this.records.insertOnce({
      _id: `${paymentId}:${request.account_id}`,
      payment_id: paymentId,
      account_id: request.account_id,
      request: providersContract.CreateChargeRequest.toJSON(request),
      due_at: new Date(Date.now() + 1_000),
      tries: 0,
      created_at: new Date(),
    });
  }

  private async resolve(orphan: OrphanChargeDoc): Promise<void> {
    const request = providersContract.CreateChargeRequest.fromJSON(orphan.request);
    try {
      if (await this.adoptedBy(orphan.payment_id, orphan.account_id)) {
        await this.records.remove(orphan._id);
        this.logger.info({ payment_id: orphan.payment_id, account_id: orphan.account_id }, 'orphan charge adopted by its retried payment');
        return;
      }
      const { charge } = await this.providers.createCharge(request);
      const status = charge && chargeStatusFromProto(charge.status);
      if (charge && status === 'pending') {
        await this.providers.cancelCharge({
          ref: {
            merchant_id: request.merchant_id,
            mode: request.mode,
            account_id: orphan.account_id,
            provider_payment_id: charge.provider_payment_id,
          },
        });
      } else if (status === 'paid' && charge) {
        // No payment holds this charge (the merchant was told it was not made, or it was made on
        // another account): the buyer's money goes back, in full, under a refund key of its own so
        // a repeat of this work refunds once. A card repeat may even have made the charge now (the
        // first create never arrived): refunded the same way.
        await this.providers.refundCharge({
          ref: { merchant_id: request.merchant_id, mode: request.mode, account_id: orphan.account_id, provider_payment_id: charge.provider_payment_id },
          refund_key: `re_orphan_${orphan.payment_id}_${orphan.account_id}`.replace(/[^A-Za-z0-9_]/g, '').slice(0, 64),
          amount: charge.amount_paid || charge.amount,
          reason: 'Cobrança sem pagamento: criada durante uma falha de comunicação com o provedor e estornada automaticamente.',
          end_to_end_id: charge.end_to_end_id ?? '',
        });
        this.logger.warn({ payment_id: orphan.payment_id, account_id: orphan.account_id }, 'orphan charge was paid; refunded in full');
      }
      await this.records.remove(orphan._id);
      this.logger.info({ payment_id: orphan.payment_id, account_id: orphan.account_id }, 'orphan charge resolved');
    } catch (error) {
      const delay = RETRY_DELAYS_MS[Math.min(orphan.tries, RETRY_DELAYS_MS.length - 1)] ?? 3_600_000;
      await this.records.retryAt(orphan, new Date(Date.now() + delay));
      const cause = (error as { cause?: Error }).cause?.message;
      this.logger.warn({ payment_id: orphan.payment_id, err: (error as Error).message, cause, retry_in_ms: delay }, 'orphan charge not resolved yet');
    }
  }
}
