import { DueWorker } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { CardDoc, CardModel } from '../db/card.model';
import type { CardTokenDoc, CardTokenModel } from '../db/card-token.model';
import type { CardsService } from '../use-cases/cards.service';

/**
 * Due work (ARCHITECTURE.md "Scheduled work"): a saved card's security code is deleted when its
 * hour is over; a token loses its code after the hour, its number when it expires (24 hours) and
 * the document a week later. The DueWorker's claim keeps two replicas off one document.
 */
export function vaultDueWork(cards: CardModel, tokens: CardTokenModel, service: CardsService, logger: Logger, pollIntervalMs: number) {
  const cardCvc = new DueWorker<CardDoc>({
    name: 'card-cvc-expiry',
    collection: cards.collection,
    filter: { deleted_at: null },
    logger,
    pollIntervalMs,
    handle: async (claimed) => service.expireCardCvc(claimed),
  });
  const tokenExpiry = new DueWorker<CardTokenDoc>({
    name: 'card-token-expiry',
    collection: tokens.collection,
    logger,
    pollIntervalMs,
    handle: async (claimed) => service.tokenDue(claimed),
  });
  return { cardCvc, tokenExpiry };
}
