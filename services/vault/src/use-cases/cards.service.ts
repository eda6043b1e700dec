/**
 * Over 300 lines: tokens and saved cards share one sealing and expiry lifecycle (token taken once,
 * card written once, reveal only for providers), kept together so every path to card data is in one
 * file.
 */
import { modeFromName, toPublicCard, type vault } from '@orquestra/contracts';
import { AppError, isDuplicateKeyError, newEvent, newId, withOutbox, type EventEnvelope, type OutboxRelay, type SecretBox } from '@orquestra/platform';
import type { FilterQuery } from 'mongoose';
import type { CardDoc, CardModel } from '../db/card.model';
import type { CardTokenDoc, CardTokenModel } from '../db/card-token.model';
import { checkCard, isExpired } from '../domain/card-check';
import { cardFingerprint } from '../domain/fingerprint';
import type { CardsConfigService } from './cards-config.service';
import type { CallerScope } from './scope';

export const MAX_METADATA_KEYS = 20;
export const MAX_HOLDER_NAME = 100;
const MAX_LIST_LIMIT = 100;
/** An expired token's document (no card data left) is kept this long, so a late use is told "expired". */
export const TOKEN_KEEP_AFTER_EXPIRY_MS = 7 * 24 * 60 * 60_000;
/** A save that took a token and wrote no card within this long died: another save may take the token. */
export const SAVE_TAKEOVER_MS = 30_000;

export interface CardsOptions {
  fingerprintKey: string;
  /** Security code lifetime after tokenizing (1 hour). */
  cvcTtlMs: number;
  /** Token lifetime (24 hours). */
  tokenTtlMs: number;
  /** Told of every due time written, so the due workers act on time without waiting for a scan. */
  onCardDue?: (at: Date) => void;
  onTokenDue?: (at: Date) => void;
}

/** The card as the API shows it (never number nor security code). */
export function toProtoCard(doc: CardDoc): vault.Card {
  return {
    id: doc._id,
    mode: modeFromName(doc.mode),
    brand: doc.brand,
    last4: doc.last4,
    exp_month: doc.exp_month,
    exp_year: doc.exp_year,
    holder_name: doc.holder_name,
    fingerprint: doc.fingerprint,
    customer_id: doc.customer_id,
    cvc_available_until: doc.cvc_available_until ? doc.cvc_available_until.toISOString() : '',
    metadata: doc.metadata,
    created_at: doc.created_at.toISOString(),
    source_key_id: doc.source_key_id,
  };
}

function cardEvent(type: 'card.created' | 'card.deleted', doc: CardDoc): EventEnvelope {
  return newEvent(type, doc, toPublicCard(toProtoCard(doc)) as unknown as Record<string, unknown>);
}

const notFound = (id: string) => new AppError('not_found', { param: 'id', message: `Não existe cartão salvo ${id.slice(0, 64)} neste modo.` });

/**
 * Card tokens and saved cards (spec §4 Saved cards). Number and security code are sealed with
 * the SecretBox on arrival and opened only by reveal (for the providers service at charge time).
 */
export class CardsService {
  constructor(
    private readonly cards: CardModel,
    private readonly tokens: CardTokenModel,
    private readonly configs: CardsConfigService,
    private readonly box: SecretBox,
    private readonly outbox: OutboxRelay,
    private readonly options: CardsOptions,
  ) {}

  async tokenize(request: vault.TokenizeRequest): Promise<CardTokenDoc> {
    const config = await this.configs.forTokenize(request.publishable_key, request.origin);
    const card = checkCard({ number: request.number, expMonth: request.exp_month, expYear: request.exp_year, cvc: request.cvc });
    const now = new Date();
    const cvcUntil = new Date(now.getTime() + Math.min(this.options.cvcTtlMs, this.options.tokenTtlMs));
    const doc: CardTokenDoc = {
      _id: newId('cardToken'),
      merchant_id: config.merchant_id,
      mode: config.mode,
      brand: card.brand,
      last4: card.last4,
      exp_month: card.expMonth,
      exp_year: card.expYear,
      fingerprint: cardFingerprint(this.options.fingerprintKey, config.merchant_id, card.number),
      number_sealed: this.box.seal(card.number),
      cvc_sealed: this.box.seal(card.cvc),
      cvc_available_until: cvcUntil,
      origin: request.origin.slice(0, 300),
      created_at: now,
      expires_at: new Date(now.getTime() + this.options.tokenTtlMs),
      used_at: null,
      card_id: '',
      // First due: the security code's deletion.
      due_at: cvcUntil,
    };
    await this.tokens.create(doc);
    this.options.onTokenDue?.(cvcUntil);
    return doc;
  }

  /**
   * Saves a token as a card: the token is taken by one conditional write (unused, unexpired, this
   * merchant and mode), so two saves of one token at once make one card; the card holds the sealed
   * data, the token then none.
   */
  async save(scope: CallerScope, keyId: string, request: vault.SaveCardRequest): Promise<CardDoc> {
    await this.configs.requireEnabled(scope);
    const tokenId = request.vault_token.trim();
    if (!tokenId) throw new AppError('parameter_missing', { param: 'vault_token', message: 'Informe vault_token: o tok_… devolvido por tokenize() dos campos de cartão.' });
    const holderName = request.holder_name.trim().replace(/\s+/g, ' ');
    if (!holderName) throw new AppError('parameter_missing', { param: 'holder_name', message: 'Informe holder_name: o nome impresso no cartão.' });
    if (holderName.length > MAX_HOLDER_NAME) throw new AppError('parameter_invalid', { param: 'holder_name', message: `holder_name aceita até ${MAX_HOLDER_NAME} caracteres.` });
    if (!request.customer_id) throw new AppError('parameter_missing', { param: 'customer', message: 'Informe customer (um cliente novo) ou customer_id.' });
    if (Object.keys(request.metadata).length > MAX_METADATA_KEYS) throw new AppError('metadata_invalid', { param: 'metadata', message: `A metadata aceita até ${MAX_METADATA_KEYS} chaves.` });

    const now = new Date();
    const cardId = newId('card');
    const token =
      (await this.tokens
        .findOneAndUpdate(
          { _id: tokenId, merchant_id: scope.merchantId, mode: scope.mode, used_at: null, expires_at: { $gt: now }, number_sealed: { $ne: null } },
          { $set: { used_at: now, card_id: cardId } },
          { new: true },
        )
        .lean<CardTokenDoc>()
        .exec()) ?? (await this.takeOverUnfinished(scope, tokenId, cardId, now));
    if (!token) throw await this.tokenRefusal(scope, tokenId, now);

    const cvcUntil = token.cvc_sealed && token.cvc_available_until && token.cvc_available_until > now ? token.cvc_available_until : null;
    const doc: CardDoc = {
      _id: cardId,
      merchant_id: scope.merchantId,
      mode: scope.mode,
      source_key_id: keyId,
      customer_id: request.customer_id,
      token_id: token._id,
      brand: token.brand,
      last4: token.last4,
      exp_month: token.exp_month,
      exp_year: token.exp_year,
      holder_name: holderName,
      fingerprint: token.fingerprint,
      number_sealed: token.number_sealed,
      cvc_sealed: cvcUntil ? token.cvc_sealed : null,
      cvc_available_until: cvcUntil,
      metadata: request.metadata,
      created_at: now,
      updated_at: now,
      deleted_at: null,
      due_at: cvcUntil,
      outbox: [],
      outbox_since: null,
    };
    doc.outbox = [cardEvent('card.created', doc)];
    doc.outbox_since = now;
    try {
      await this.cards.create(doc);
    } catch (error) {
      // The token's unique index: only possible if a card of it exists already.
      if (isDuplicateKeyError(error)) throw new AppError('parameter_invalid', { param: 'vault_token', message: 'Este vault_token já foi usado para salvar um cartão. Gere outro com tokenize().' });
      throw error;
    }
    // The card holds the data now: none stays with the token.
    await this.tokens.updateOne({ _id: token._id, card_id: cardId }, { $set: { number_sealed: null, cvc_sealed: null, cvc_available_until: null, due_at: new Date(token.expires_at.getTime() + TOKEN_KEEP_AFTER_EXPIRY_MS) } }).exec();
    void this.outbox.flush(this.cards.collection, doc._id);
    if (cvcUntil) this.options.onCardDue?.(cvcUntil);
    return doc;
  }

  /**
   * A save that died between taking the token and writing the card left the token used, its data
   * still in it, and no card: after SAVE_TAKEOVER_MS another save may take it (one conditional
   * write on the dead save's claim), so the token is not lost. A card that was written keeps it.
   */
  private async takeOverUnfinished(scope: CallerScope, tokenId: string, cardId: string, now: Date): Promise<CardTokenDoc | null> {
    const token = await this.tokens.findOne({ _id: tokenId, merchant_id: scope.merchantId, mode: scope.mode }).lean<CardTokenDoc>().exec();
    if (!token?.used_at || !token.number_sealed || token.expires_at <= now || now.getTime() - token.used_at.getTime() < SAVE_TAKEOVER_MS) return null;
    if (await this.cards.exists({ _id: token.card_id }).exec()) return null;
    return this.tokens
      .findOneAndUpdate({ _id: tokenId, used_at: token.used_at, card_id: token.card_id }, { $set: { used_at: now, card_id: cardId } }, { new: true })
      .lean<CardTokenDoc>()
      .exec();
  }

  private async tokenRefusal(scope: CallerScope, tokenId: string, now: Date): Promise<AppError> {
    const token = await this.tokens.findOne({ _id: tokenId, merchant_id: scope.merchantId, mode: scope.mode }).lean<CardTokenDoc>().exec();
    if (!token) return new AppError('parameter_invalid', { param: 'vault_token', message: `vault_token desconhecido neste modo. Use o tok_… que tokenize() devolveu com a chave pública do modo ${scope.mode}.` });
    if (token.used_at) return new AppError('parameter_invalid', { param: 'vault_token', message: `Este vault_token já foi usado para salvar o cartão ${token.card_id}. Gere outro com tokenize().` });
    if (token.expires_at <= now || !token.number_sealed) return new AppError('parameter_invalid', { param: 'vault_token', message: 'Este vault_token venceu (vale 24 horas). Peça os dados do cartão de novo e gere outro com tokenize().' });
    return new AppError('parameter_invalid', { param: 'vault_token', message: 'Este vault_token não pode ser usado agora. Gere outro com tokenize().' });
  }

  async get(scope: CallerScope, id: string): Promise<CardDoc> {
    if (!id) throw new AppError('parameter_missing', { param: 'id' });
    const doc = await this.cards.findOne({ _id: id, merchant_id: scope.merchantId, mode: scope.mode, deleted_at: null }).lean<CardDoc>().exec();
    if (!doc) throw notFound(id);
    return doc;
  }

  async list(scope: CallerScope, query: { customerId: string; limit: number; startingAfter: string }): Promise<{ data: CardDoc[]; hasMore: boolean }> {
    if (!Number.isInteger(query.limit) || query.limit < 0 || query.limit > MAX_LIST_LIMIT) {
      throw new AppError('parameter_invalid', { param: 'limit', message: `O parâmetro limit deve ser um inteiro de 1 a ${MAX_LIST_LIMIT}.` });
    }
    const limit = query.limit || 10;
    const filter: FilterQuery<CardDoc> = { merchant_id: scope.merchantId, mode: scope.mode, deleted_at: null };
    if (query.customerId) filter.customer_id = query.customerId;
    if (query.startingAfter) filter._id = { $lt: query.startingAfter };
    const docs = await this.cards.find(filter).sort({ _id: -1 }).limit(limit + 1).lean<CardDoc[]>().exec();
    return { data: docs.slice(0, limit), hasMore: docs.length > limit };
  }

  /**
   * Deletes a card: one write removes every piece of card data (sealed number and code, brand,
   * last4, expiry, holder, fingerprint, metadata) and queues card.deleted, which carries the card
   * as it was shown. What stays is a tombstone of ids, read as not_found.
   */
  async delete(scope: CallerScope, id: string): Promise<CardDoc> {
    const doc = await this.get(scope, id);
    const now = new Date();
    const shown: CardDoc = { ...doc, cvc_available_until: null };
    const deleted = await this.cards
      .findOneAndUpdate(
        { _id: doc._id, deleted_at: null },
        withOutbox(
          {
            $set: {
              deleted_at: now,
              updated_at: now,
              number_sealed: null,
              cvc_sealed: null,
              cvc_available_until: null,
              due_at: null,
              brand: '',
              last4: '',
              exp_month: 0,
              exp_year: 0,
              holder_name: '',
              fingerprint: '',
              metadata: {},
            },
          },
          [cardEvent('card.deleted', shown)],
        ),
        { new: true },
      )
      .lean<CardDoc>()
      .exec();
    if (!deleted) throw notFound(id);
    void this.outbox.flush(this.cards.collection, doc._id);
    return shown;
  }

  /**
   * The card's data for one provider call (the providers service only). A saved card or an unsaved
   * token; deleted, unknown, used or expired tokens are invalid_card; an expired card card_expired.
   * The security code is answered only while it still exists (its time may have passed before the
   * due work ran: the time decides).
   */
  async reveal(scope: CallerScope, request: { cardId: string; token: string; paymentId?: string }): Promise<vault.RevealedCard> {
    if (Boolean(request.cardId) === Boolean(request.token)) {
      throw new AppError('parameter_invalid', { param: 'card', message: 'Informe exatamente um: card.id (cartão salvo) ou card.token (tok_… dos campos de cartão).' });
    }
    await this.configs.requireEnabled(scope);
    const now = new Date();
    const source: CardDoc | CardTokenDoc | null = request.cardId
      ? await this.cards.findOne({ _id: request.cardId, merchant_id: scope.merchantId, mode: scope.mode, deleted_at: null }).lean<CardDoc>().exec()
      : await this.tokens.findOne({ _id: request.token, merchant_id: scope.merchantId, mode: scope.mode }).lean<CardTokenDoc>().exec();
    if (!source || !source.number_sealed) {
      const param = request.cardId ? 'card.id' : 'card.token';
      const token = source && 'used_at' in source ? source : undefined;
      if (token?.used_at) {
        throw new AppError('invalid_card', { param, message: `Este token já foi salvo como o cartão ${token.card_id}: cobre com card.id.` });
      }
      if (request.token && source) throw new AppError('invalid_card', { param, message: 'Este token dos campos de cartão venceu (vale 24 horas). Peça os dados do cartão de novo.' });
      throw new AppError('invalid_card', { param, message: request.cardId ? 'Este cartão não existe ou foi apagado. Peça ao cliente que cadastre o cartão de novo.' : 'Token de cartão desconhecido neste modo.' });
    }
    if ('expires_at' in source && source.expires_at <= now) {
      throw new AppError('invalid_card', { param: 'card.token', message: 'Este token dos campos de cartão venceu (vale 24 horas). Peça os dados do cartão de novo.' });
    }
    if (isExpired(source.exp_month, source.exp_year, now)) {
      throw new AppError('card_expired', { param: request.cardId ? 'card.id' : 'card.token' });
    }
    if (request.token) await this.bindTokenToPayment(scope, request.token, request.paymentId ?? '');
    const cvcSealed = source.cvc_sealed && source.cvc_available_until && source.cvc_available_until > now ? source.cvc_sealed : null;
    const card = 'holder_name' in source ? source : undefined;
    return {
      number: this.box.open(source.number_sealed),
      exp_month: source.exp_month,
      exp_year: source.exp_year,
      cvc: cvcSealed ? this.box.open(cvcSealed) : '',
      holder_name: card?.holder_name ?? '',
      brand: source.brand,
      fingerprint: source.fingerprint,
      card_id: card?._id ?? '',
      customer_id: card?.customer_id ?? '',
    };
  }

  /**
   * A card fields token charges one payment: the first charge binds it (one conditional write, so
   * two payments racing with one token get one winner); that payment's retries and failover reveal
   * it again, any other payment is refused.
   */
  private async bindTokenToPayment(scope: CallerScope, token: string, paymentId: string): Promise<void> {
    if (!paymentId) throw new AppError('parameter_missing', { param: 'payment_id', message: 'RevealCard de um token precisa do pagamento que ele cobra.' });
    const bound = await this.tokens
      .findOneAndUpdate(
        { _id: token, merchant_id: scope.merchantId, mode: scope.mode, $or: [{ charged_for: null }, { charged_for: paymentId }] },
        { $set: { charged_for: paymentId } },
        { new: true },
      )
      .lean<CardTokenDoc>()
      .exec();
    if (!bound) {
      throw new AppError('invalid_card', { param: 'card.token', message: 'Este token dos campos de cartão já foi usado em outro pagamento. Peça os dados do cartão de novo (ou salve o cartão e cobre com card.id).' });
    }
  }

  /** First approval: the security code is deleted at once (a card_ or a tok_). Unknown ids are no-ops. */
  async approved(scope: CallerScope, id: string): Promise<void> {
    if (!id) throw new AppError('parameter_missing', { param: 'card_id' });
    const unset = { cvc_sealed: null, cvc_available_until: null };
    const filter = { _id: id, merchant_id: scope.merchantId, mode: scope.mode, cvc_sealed: { $ne: null } };
    if (id.startsWith('tok_')) {
      const token = await this.tokens.findOneAndUpdate(filter, { $set: { ...unset, due_at: null } }, { new: true }).lean<CardTokenDoc>().exec();
      // The number still goes when the token expires.
      if (token?.number_sealed) await this.tokens.updateOne({ _id: id, due_at: null }, { $set: { due_at: token.expires_at } }).exec();
      if (token) this.options.onTokenDue?.(token.expires_at);
      return;
    }
    await this.cards.updateOne(filter, { $set: { ...unset, due_at: null, updated_at: new Date() } }).exec();
  }

  /** Due work on a card: its security code's time is over. */
  async expireCardCvc(doc: CardDoc): Promise<void> {
    await this.cards.updateOne({ _id: doc._id, due_at: doc.due_at }, { $set: { cvc_sealed: null, cvc_available_until: null, due_at: null, updated_at: new Date() } }).exec();
  }

  /**
   * Due work on a token: the security code after an hour, the number when the token expires, the
   * document a week later.
   */
  async tokenDue(doc: CardTokenDoc): Promise<void> {
    const now = new Date();
    const claim = { _id: doc._id, due_at: doc.due_at };
    if (doc.number_sealed && doc.expires_at > now) {
      await this.tokens.updateOne(claim, { $set: { cvc_sealed: null, cvc_available_until: null, due_at: doc.expires_at } }).exec();
      this.options.onTokenDue?.(doc.expires_at);
      return;
    }
    const purgeAt = new Date(doc.expires_at.getTime() + TOKEN_KEEP_AFTER_EXPIRY_MS);
    if (purgeAt <= now) {
      await this.tokens.deleteOne(claim).exec();
      return;
    }
    await this.tokens.updateOne(claim, { $set: { number_sealed: null, cvc_sealed: null, cvc_available_until: null, due_at: purgeAt } }).exec();
  }
}
