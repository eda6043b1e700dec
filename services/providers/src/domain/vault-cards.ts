import { isVaultCard, modeFromName, type vault } from '@orquestra/contracts';
import { AppError, type RpcClient } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { CardChargeInput, VaultCardInput } from '../adapters/provider-adapter';


/**
 * The card of a charge, when it is in the vault (a saved card_… or a card fields tok_…): read from
 * the vault for this one provider call and handed to the adapter, held in memory only. A card the
 * vault refuses answers the vault's own error (invalid_card, card_expired, account_not_enabled).
 */
export class VaultCards {
  constructor(
    private readonly client: Pick<RpcClient<typeof vault.VaultServiceService>, 'revealCard' | 'cardApproved'>,
    private readonly logger: Logger,
  ) {}

  static isVaultCard(card: { token: string; id: string } | undefined): boolean {
    return isVaultCard(card);
  }

  /** The adapter's card input for a vault card, with the buyer's name standing in for a token's holder. */
  async cardInput(
    scope: { merchantId: string; mode: 'test' | 'live' },
    card: { token: string; id: string; installments: number; brand: string },
    buyerName: string,
    paymentId: string,
    requestId: string,
  ): Promise<CardChargeInput> {
    const { card: revealed } = await this.client.revealCard(
      { merchant_id: scope.merchantId, mode: modeFromName(scope.mode), card_id: card.id, token: card.id ? '' : card.token, payment_id: paymentId },
      { requestId },
    );
    if (!revealed) throw new AppError('invalid_card', { param: card.id ? 'card.id' : 'card.token' });
    const vaultCard: VaultCardInput = {
      number: revealed.number,
      expMonth: revealed.exp_month,
      expYear: revealed.exp_year,
      ...(revealed.cvc ? { cvc: revealed.cvc } : {}),
      holderName: revealed.holder_name || buyerName,
      brand: revealed.brand,
    };
    return { token: '', vaultCard, installments: card.installments || 1, brand: revealed.brand };
  }

  /**
   * A saved card approved once: the vault deletes its security code (spec: "until first
   * approval"). A failure is logged, not the charge's: the vault's own timer deletes it within the hour.
   */
  approved(scope: { merchantId: string; mode: 'test' | 'live' }, cardId: string, requestId: string): void {
    void this.client.cardApproved({ merchant_id: scope.merchantId, mode: modeFromName(scope.mode), card_id: cardId }, { requestId }).catch((error: Error) =>
      this.logger.warn({ card_id: cardId, err: error.message }, 'could not tell the vault a saved card was approved; its security code goes at its deadline'),
    );
  }
}
