import { modeName, type providers } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import { isChargeListingCapable, type ListedCharge } from '../adapters/provider-charge-listing';
import type { ProviderAccountService } from '../domain/provider-account.service';
import { guarded } from './provider-errors';

/** The adapter's listed charge → gRPC message; a fee the list does not report stays absent. */
export function toProtoListedCharge(charge: ListedCharge): providers.ListedCharge {
  return {
    provider_payment_id: charge.providerPaymentId,
    status: charge.status,
    amount: charge.amount,
    amount_refunded: charge.amountRefunded,
    ...(charge.fee !== null ? { fee: charge.fee } : {}),
    method: charge.method ?? '',
    created_at: charge.createdAt.toISOString(),
    reference: charge.reference ?? '',
  };
}

function instant(value: string, param: string): Date {
  if (!value) throw new AppError('parameter_missing', { param });
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new AppError('parameter_invalid', { param, message: `${param} deve ser uma data e hora RFC 3339 (por exemplo 2026-11-01T00:00:00Z).` });
  return date;
}

/**
 * ListCharges (issue 18, reconciliation): one page of the account's own charge records for a
 * period, through the account's breaker. An adapter without the listing capability answers
 * `supported: false` (not an error: the run marks the account unsupported and goes on).
 */
export function chargeListingHandlers(accounts: ProviderAccountService): Pick<Handlers<typeof providers.ProvidersServiceService>, 'listCharges'> {
  return {
    async listCharges({ account: ref, from, to, cursor }) {
      if (!ref) throw new AppError('parameter_missing', { param: 'provider_account_id' });
      const account = await accounts.get(ref.merchant_id, modeName(ref.mode), ref.account_id);
      if (!isChargeListingCapable(accounts.adapterFor(account))) return { charges: [], next_cursor: '', supported: false, notes: [] };
      const period = { from: instant(from, 'from'), to: instant(to, 'to') };
      if (period.from.getTime() >= period.to.getTime()) throw new AppError('parameter_invalid', { param: 'from', message: 'from deve ser anterior a to.' });
      const page = await guarded(
        () => accounts.call(account, (adapter) => (isChargeListingCapable(adapter) ? adapter.listCharges(period, cursor || null) : Promise.resolve({ charges: [], next: null }))),
        'provider_account_id',
      );
      return { charges: page.charges.map(toProtoListedCharge), next_cursor: page.next ?? '', supported: true, notes: page.notes ?? [] };
    },
  };
}
