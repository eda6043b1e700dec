import { toPublicSubaccount, type common, type payments, type payouts, type providers } from '@orquestra/contracts';
import type { CreateSubaccountInput, SubaccountPersonFields } from '../schemas/create-subaccount.schema';
import {
  SUBACCOUNT_STATUSES,
  SUBACCOUNT_TYPES,
  type SubaccountBalanceJson,
  type SubaccountDetailJson,
  type SubaccountJson,
  type SubaccountListJson,
  type SubaccountOnboardingLinkJson,
} from '../schemas/subaccount.response.schema';
import { oneOf } from './narrow';

/** A person of the create body → the proto person: absent texts empty, absent cents and address absent. */
function toPersonInput(person: SubaccountPersonFields): providers.SubaccountPersonInput {
  const { address } = person;
  return {
    name: person.name,
    document: person.document,
    email: person.email ?? '',
    phone: person.phone ?? '',
    birthdate: person.birthdate ?? '',
    mother_name: person.mother_name ?? '',
    occupation: person.occupation ?? '',
    ...(person.monthly_income !== undefined ? { monthly_income: person.monthly_income } : {}),
    ...(address
      ? {
          address: {
            street: address.street,
            number: address.number,
            neighborhood: address.neighborhood,
            city: address.city,
            state: address.state,
            zip: address.zip,
            ...(address.complement !== undefined ? { complement: address.complement } : {}),
          },
        }
      : {}),
  };
}

/** POST /v1/subaccounts body → CreateSubaccountRequest; an empty type lets the payouts service derive it from the document. */
export function toCreateSubaccountRequest(
  input: CreateSubaccountInput,
  context: { caller: common.Caller; idempotencyKey: string | undefined; requestHash: string },
): payouts.CreateSubaccountRequest {
  const { bank_account: bank, pix_key: pixKey, company, partner } = input;
  return {
    caller: context.caller,
    idempotency_key: context.idempotencyKey ?? '',
    request_hash: context.requestHash,
    provider_account_id: input.provider_account_id,
    type: input.type ?? '',
    person: toPersonInput(input),
    ...(bank
      ? {
          bank_account: {
            bank: bank.bank,
            branch: bank.branch,
            branch_digit: bank.branch_digit ?? '',
            account: bank.account,
            account_digit: bank.account_digit ?? '',
            type: bank.type ?? '',
            holder_name: bank.holder_name ?? '',
          },
        }
      : {}),
    ...(pixKey ? { pix_key: { key_type: pixKey.key_type, key: pixKey.key } } : {}),
    ...(company
      ? {
          company: {
            trading_name: company.trading_name ?? '',
            company_type: company.company_type ?? '',
            founding_date: company.founding_date ?? '',
            ...(company.annual_revenue !== undefined ? { annual_revenue: company.annual_revenue } : {}),
          },
        }
      : {}),
    ...(partner ? { partner: toPersonInput(partner) } : {}),
    transfer_interval: input.transfer_interval ?? '',
    metadata: { ...input.metadata },
  };
}

/** A subaccount as the public API shows it (§2): `toPublicSubaccount`, with the enums the document promises narrowed. */
export function toSubaccountJson(subaccount: payouts.Subaccount): SubaccountJson {
  const shown = toPublicSubaccount(subaccount);
  return {
    ...shown,
    status: oneOf(SUBACCOUNT_STATUSES, shown.status, 'subaccount.status'),
    type: oneOf(SUBACCOUNT_TYPES, shown.type, 'subaccount.type'),
  };
}

export function toSubaccountListJson(response: payouts.ListSubaccountsResponse): SubaccountListJson {
  return { object: 'list', data: response.data.map(toSubaccountJson), has_more: response.has_more };
}

export function toSubaccountOnboardingLinkJson(response: payouts.CreateSubaccountOnboardingLinkResponse): SubaccountOnboardingLinkJson {
  return { url: response.url, expires_at: response.expires_at, qr_code_base64: response.qr_code_base64 || null };
}

export function toSubaccountBalanceJson(response: payouts.GetSubaccountBalanceResponse): SubaccountBalanceJson {
  return { object: 'balance', available: response.available, pending: response.pending ?? null, currency: 'BRL', as_of: response.as_of };
}

/** GET /subaccounts/{id}: the subaccount plus what payments say about its splits. */
export function toSubaccountDetailJson(subaccount: payouts.Subaccount, summary: payments.GetSplitSummaryResponse): SubaccountDetailJson {
  return {
    ...toSubaccountJson(subaccount),
    totals: {
      payments: summary.totals?.payments ?? 0,
      paid_payments: summary.totals?.paid_payments ?? 0,
      paid_amount: summary.totals?.paid_amount ?? 0,
      pending_amount: summary.totals?.pending_amount ?? 0,
    },
    recent_split_payments: summary.recent.map((payment) => ({
      payment_id: payment.payment_id,
      status: payment.status,
      method: payment.method || null,
      payment_amount: payment.payment_amount,
      amount: payment.amount,
      created_at: payment.created_at,
    })),
  };
}
