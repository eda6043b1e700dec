import { modeFromName, type common, type routing as routingContract } from '@orquestra/contracts';
import { AppError, type RpcClient } from '@orquestra/platform';
import { toProtoPaymentCustomer } from '../db/payment-customer.mapper';
import type { PaymentDoc } from '../db/payment.model';
import { assertRoomForFee } from '../domain/splits';
import { needsHostedCheckout } from './method-input';

/** Every method a buyer may be offered, in the order the payment page shows them. */
export const PAGE_METHODS = ['pix', 'boleto', 'card'] as const;

/** Time the buyer has to choose when neither expires_in_minutes nor config says otherwise. */
export const DEFAULT_METHOD_CHOICE_MINUTES = 60;

/** The split's fee-room refusal for a method at the payment's (pinned) account, if any. */
function splitFeeRefusal(payment: PaymentDoc, method: string, fees: ReadonlyArray<{ method: string; percent_bps: number; fixed: number }>): AppError | undefined {
  if (!payment.splits?.length) return undefined;
  try {
    assertRoomForFee(payment.amount, payment.splits, fees.find((rule) => rule.method === method));
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

/** Errors by which routing says "no account can take this method for this payment" (not an outage). */
const NOT_OFFERED = new Set(['no_eligible_account', 'method_not_available', 'parameter_missing', 'missing_document', 'missing_email', 'missing_phone', 'missing_address', 'parameter_invalid', 'not_found']);

export interface MethodOffer {
  methods: string[];
  /** Some account charges vault cards: a card fields `tok_…` can be charged. */
  vaultCards: boolean;
  /**
   * The page collects card with its card fields: an account charges vault cards and none has a
   * hosted checkout (where one has, the page keeps sending the buyer there, as before).
   */
  cardFields: boolean;
  /** Routing's answer for the first method not offered (names the missing datum, bot rule 5). */
  firstError?: AppError;
}

type Answer = { method: string; error?: AppError };

/**
 * Which methods can be charged now for a payment: those for which routing's Route (the very call
 * the charge walk makes) finds at least one eligible account of the payment's mode, with its
 * amount, metadata, customer data and forced account. Asked live on every page view, so an account
 * connected or disconnected meanwhile shows at once. Card is asked twice: an account with a hosted
 * checkout (the buyer is redirected to the provider's page, preferred when there is one, as
 * before) or an account that charges vault cards (the page's card fields mint a `tok_…` the walk
 * charges as a vault card).
 */
export class AvailableMethods {
  constructor(private readonly routing: Pick<RpcClient<typeof routingContract.RoutingServiceService>, 'route'>) {}

  async offer(payment: PaymentDoc, requestId: string): Promise<MethodOffer> {
    const caller: common.Caller = { merchant_id: payment.merchant_id, mode: modeFromName(payment.mode), key_id: payment.source_key_id, restricted: false, request_id: requestId };
    const ask = (method: string, vaultCard: boolean): Promise<Answer> =>
      this.routing
        .route(
          {
            caller,
            method,
            amount: payment.amount,
            metadata: payment.metadata,
            customer: toProtoPaymentCustomer(payment.customer),
            forced_account_id: payment.requested_account_id ?? '',
            // Card without the card fields: only where the provider collects it on its own hosted checkout.
            hosted_checkout: !vaultCard && needsHostedCheckout(method, undefined),
            // Card through the card fields: a fresh tok_ (never a saved card, so with its security code).
            vault_card: vaultCard,
            vault_card_without_cvc: false,
            // The same draw as the walk that charges it (charge-walker.ts).
            payment_id: payment._id,
          },
          { requestId },
        )
        .then(
          ({ candidates }): Answer => {
            if (candidates.length === 0) return { method, error: new AppError('no_eligible_account', { param: 'method' }) };
            // A split payment: only methods whose fee the main account's remainder covers at its account.
            const refusal = splitFeeRefusal(payment, method, candidates[0]?.fees ?? []);
            return refusal ? { method, error: refusal } : { method };
          },
          (error: unknown): Answer => {
            if (error instanceof AppError && NOT_OFFERED.has(error.code)) return { method, error };
            // Routing's answer when no account charges vault cards (spec §7): card fields not offered.
            if (vaultCard && error instanceof AppError && error.code === 'account_not_enabled') return { method, error };
            throw error;
          },
        );
    const [answers, cardFieldsAnswer] = await Promise.all([
      Promise.all(PAGE_METHODS.map((method) => ask(method, false))),
      ask('card', true),
    ]);
    const vaultCards = !cardFieldsAnswer.error;
    const hostedCard = answers.some((answer) => answer.method === 'card' && !answer.error);
    const offered = (answer: Answer) => !answer.error || (answer.method === 'card' && vaultCards);
    return {
      methods: answers.filter(offered).map((answer) => answer.method),
      vaultCards,
      cardFields: vaultCards && !hostedCard,
      firstError: answers.find((answer) => !offered(answer))?.error,
    };
  }
}
