import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { Card, CardsConfig, CreateCardParams, DeletedCard, ListCardsParams, UpdateCardsConfigParams } from '../types/card.types';
import { Resource, segment, type ListPromise } from './resource';

/**
 * /v1/cards: saved cards. Restricted keys may save, list and read; deleting takes a full key.
 * The card itself never passes through your server: your page tokenizes it with the card fields
 * (`cardsConfig.retrieve()` gives the script and the publishable key) and you save the tok_… here.
 */
export class CardsResource extends Resource {
  /**
   * Saves the card of a tok_… (valid 24 hours, once). No Idempotency-Key: the token is used up by
   * the first save, so a retry never saves a second card (look it up with `list({ customer_id })`).
   */
  create(params: CreateCardParams, options?: RequestOptions): Promise<WithLastResponse<Card>> {
    return this.call({ method: 'POST', path: '/v1/cards', body: params }, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<Card>> {
    return this.call({ method: 'GET', path: `/v1/cards/${segment(id)}` }, options);
  }

  /** One page, newest first. */
  list(params: ListCardsParams = {}, options?: RequestOptions): ListPromise<Card> {
    return this.pageList<Card>('/v1/cards', params, options);
  }

  /** Every card matching the filters, fetching pages as you iterate. */
  listAll(params: ListCardsParams = {}, options?: RequestOptions): AsyncGenerator<Card> {
    return this.paginate<Card>('/v1/cards', params, options);
  }

  /** Deletes the card, also from the vault (full keys only). */
  delete(id: string, options?: RequestOptions): Promise<WithLastResponse<DeletedCard>> {
    return this.call({ method: 'DELETE', path: `/v1/cards/${segment(id)}` }, options);
  }
}

/** /v1/cards/config: the card fields' script, publishable key and allowed sites. */
export class CardsConfigResource extends Resource {
  retrieve(options?: RequestOptions): Promise<WithLastResponse<CardsConfig>> {
    return this.call({ method: 'GET', path: '/v1/cards/config' }, options);
  }

  /** Replaces the allowed sites (full keys only); an empty list allows any site. */
  update(params: UpdateCardsConfigParams, options?: RequestOptions): Promise<WithLastResponse<CardsConfig>> {
    return this.call({ method: 'PATCH', path: '/v1/cards/config', body: params }, options);
  }
}
