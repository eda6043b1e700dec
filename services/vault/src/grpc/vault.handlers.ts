import type { vault } from '@orquestra/contracts';
import type { Handlers } from '@orquestra/platform';
import { toProtoConfig, type CardsConfigService } from '../use-cases/cards-config.service';
import { toProtoCard, type CardsService } from '../use-cases/cards.service';
import { scopeFor, scopeOf } from '../use-cases/scope';

/**
 * Thin: the caller's scope and the request's fields to the use cases, their answer to the message.
 * Nothing here logs a request: Tokenize and RevealCard carry card data.
 */
export function vaultHandlers(configs: CardsConfigService, cards: CardsService): Handlers<typeof vault.VaultServiceService> {
  return {
    async getCardsConfig(request) {
      return { config: toProtoConfig(await configs.get(scopeOf(request.caller))) };
    },

    async updateCardsConfig(request) {
      return { config: toProtoConfig(await configs.updateAllowedOrigins(scopeOf(request.caller, { fullKeyOnly: true }), request.allowed_origins)) };
    },

    async setCardsEnabled(request) {
      return { config: toProtoConfig(await configs.setEnabled(scopeFor(request.merchant_id, request.mode), request.enabled)) };
    },

    async tokenize(request) {
      const token = await cards.tokenize(request);
      return {
        token: token._id,
        expires_at: token.expires_at.toISOString(),
        brand: token.brand,
        last4: token.last4,
        exp_month: token.exp_month,
        exp_year: token.exp_year,
      };
    },

    async saveCard(request) {
      return { card: toProtoCard(await cards.save(scopeOf(request.caller), request.caller?.key_id ?? '', request)) };
    },

    async getCard(request) {
      return { card: toProtoCard(await cards.get(scopeOf(request.caller), request.card_id)) };
    },

    async listCards(request) {
      const page = await cards.list(scopeOf(request.caller), { customerId: request.customer_id, limit: request.limit, startingAfter: request.starting_after });
      return { data: page.data.map(toProtoCard), has_more: page.hasMore };
    },

    async deleteCard(request) {
      return { card: toProtoCard(await cards.delete(scopeOf(request.caller, { fullKeyOnly: true }), request.card_id)) };
    },

    async revealCard(request) {
      return { card: await cards.reveal(scopeFor(request.merchant_id, request.mode), { cardId: request.card_id, token: request.token, paymentId: request.payment_id }) };
    },

    async cardApproved(request) {
      await cards.approved(scopeFor(request.merchant_id, request.mode), request.card_id);
      return {};
    },
  };
}
