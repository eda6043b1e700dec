import { modeName, type vault } from '@orquestra/contracts';
import { CARD_BRANDS, type CardJson, type CardListJson, type CardsConfigJson, type TokenizeResultJson } from '../schemas/card.schema';
import { oneOf } from './narrow';

/** A saved card as the public API shows it (spec §2 Saved card): never the number or security code. */
export function toCardJson(card: vault.Card): CardJson {
  return {
    id: card.id,
    object: 'card',
    mode: modeName(card.mode),
    brand: oneOf(CARD_BRANDS, card.brand, 'card.brand'),
    last4: card.last4,
    exp_month: card.exp_month,
    exp_year: card.exp_year,
    holder_name: card.holder_name,
    fingerprint: card.fingerprint,
    customer: card.customer_id,
    cvc_available_until: card.cvc_available_until || null,
    metadata: { ...card.metadata },
    created_at: card.created_at,
  };
}

export function toCardListJson(response: vault.ListCardsResponse): CardListJson {
  return { object: 'list', data: response.data.map(toCardJson), has_more: response.has_more };
}

/** GET/PATCH /v1/cards/config; `script` is the absolute address of the card fields' script. */
export function toCardsConfigJson(config: vault.CardsConfig, scriptUrl: string): CardsConfigJson {
  return {
    object: 'cards_config',
    mode: modeName(config.mode),
    script: scriptUrl,
    publishable_key: config.publishable_key,
    allowed_origins: [...config.allowed_origins],
    enabled: config.enabled,
  };
}

export function toTokenizeResultJson(response: vault.TokenizeResponse): TokenizeResultJson {
  return {
    object: 'card_token',
    token: response.token,
    expires_at: response.expires_at,
    brand: oneOf(CARD_BRANDS, response.brand, 'card_token.brand'),
    last4: response.last4,
    exp_month: response.exp_month,
    exp_year: response.exp_year,
  };
}
