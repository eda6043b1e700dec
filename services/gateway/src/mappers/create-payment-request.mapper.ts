import { customerToProto, type common, type payments } from '@orquestra/contracts';
import type { CreatePaymentInput } from '../schemas/create-payment.schema';

export interface CreatePaymentContext {
  caller: common.Caller;
  /** Buyer IP used when the body has none (§2 Customer.ip): the API caller's IP. */
  callerIp: string;
  idempotencyKey: string | undefined;
  requestHash: string;
}

/** Validated public body → CreatePayment request. Absent optional strings become "" (proto3) outside the customer, whose fields have presence. */
export function toCreatePaymentRequest(
  input: CreatePaymentInput,
  context: CreatePaymentContext,
): payments.CreatePaymentRequest {
  return {
    caller: context.caller,
    idempotency_key: context.idempotencyKey ?? '',
    request_hash: context.requestHash,
    method: input.method ?? '',
    amount: input.amount,
    description: input.description ?? '',
    customer: customerToProto({ ...input.customer, ip: input.customer.ip ?? context.callerIp }),
    expires_in_minutes: input.expires_in_minutes ?? 0,
    metadata: { ...input.metadata },
    tracking: Object.fromEntries(
      Object.entries(input.tracking ?? {}).filter((entry): entry is [string, string] => entry[1] !== undefined),
    ),
    provider_account_id: input.provider_account_id ?? '',
    ...(input.card
      ? { card: { token: input.card.token ?? '', id: input.card.id ?? '', installments: input.card.installments ?? 1, brand: input.card.brand ?? '', without_cvc: false } }
      : {}),
    // A percentage (up to two decimals, checked by the schema) travels as hundredths of a percent.
    splits: (input.splits ?? []).map((split) =>
      split.amount !== undefined ? { subaccount_id: split.subaccount_id, amount: split.amount } : { subaccount_id: split.subaccount_id, percent_bps: Math.round((split.percentage ?? 0) * 100) },
    ),
  };
}
