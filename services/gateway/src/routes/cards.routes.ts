import { customerToProto } from '@orquestra/contracts';
import { AppError } from '@orquestra/platform';
import { Router, type Request } from 'express';
import type { RouteContext } from '../http/app.deps';
import { requireFullKey } from '../http/auth.middleware';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { callerOf, rpcOptions } from '../http/request-context';
import { toCardJson, toCardListJson, toCardsConfigJson } from '../mappers/card.mapper';
import { CARD_FIELD_HINTS, CardIdParamsSchema, ListCardsQuerySchema, SaveCardSchema, UpdateCardsConfigSchema } from '../schemas/card.schema';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { aboutPathId, pathIdOf } from './path-id';

const cardIdOf = (req: Request): string => pathIdOf(req, CardIdParamsSchema.shape.id);

/**
 * /v1/cards/config and /v1/cards… (spec §4 Saved cards, §5.4). Restricted keys may read the
 * config and save, list and read cards; changing the config and deleting a card take a full key.
 * POST /v1/cards takes no Idempotency-Key: the tok_… is used up by the first save, so a retry can
 * never save a second card (it answers that the token was used; GET /v1/cards?customer_id finds it).
 */
export function cardsRoutes(context: RouteContext): Router {
  const { clients, authenticate, settings } = context;
  const router = Router();
  const fullKeyOnly = requireFullKey();
  const scriptUrl = `${settings.publicBaseUrl.replace(/\/+$/, '')}/v1/cards/fields.js`;

  router.get('/cards/config', authenticate, async (_req, res) => {
    const response = await clients.vault.getCardsConfig({ caller: callerOf(res) }, rpcOptions(res));
    if (!response.config) throw new AppError('internal', { message: 'GetCardsConfig answered without a config' });
    res.json(toCardsConfigJson(response.config, scriptUrl));
  });

  router.patch('/cards/config', authenticate, fullKeyOnly, jsonBodyMiddleware(), async (req, res) => {
    const input = parseOrThrow(UpdateCardsConfigSchema, req.body, 'body', CARD_FIELD_HINTS);
    const response = await clients.vault.updateCardsConfig(
      { caller: callerOf(res), allowed_origins: [...new Set(input.allowed_origins)] },
      rpcOptions(res),
    );
    if (!response.config) throw new AppError('internal', { message: 'UpdateCardsConfig answered without a config' });
    res.json(toCardsConfigJson(response.config, scriptUrl));
  });

  router.post('/cards', authenticate, jsonBodyMiddleware(), async (req, res) => {
    const input = parseOrThrow(SaveCardSchema, req.body, 'body', CARD_FIELD_HINTS);
    const caller = callerOf(res);
    let customerId = input.customer_id ?? '';
    if (input.customer) {
      // New, or the existing customer of the same CPF/CNPJ in this mode (payments' customer records).
      const upserted = await clients.customers.upsertCustomer({ caller, customer: customerToProto(input.customer) }, rpcOptions(res));
      if (!upserted.customer) throw new AppError('internal', { message: 'UpsertCustomer answered without a customer' });
      customerId = upserted.customer.id;
    }
    const response = await clients.vault.saveCard(
      { caller, vault_token: input.vault_token, holder_name: input.holder_name, customer_id: customerId, metadata: { ...input.metadata } },
      rpcOptions(res),
    );
    if (!response.card) throw new AppError('internal', { message: 'SaveCard answered without a card' });
    res.status(201).setHeader('Location', `/v1/cards/${response.card.id}`).json(toCardJson(response.card));
  });

  // A restricted key saves cards but never lists them (§5.4: it reads only what it created, and
  // lists no customers): the list is the full key's; a card it saved it may read by id.
  router.get('/cards', authenticate, fullKeyOnly, async (req, res) => {
    const query = parseOrThrow(ListCardsQuerySchema, req.query, 'query', CARD_FIELD_HINTS);
    const response = await clients.vault.listCards(
      { caller: callerOf(res), customer_id: query.customer_id ?? '', limit: query.limit, starting_after: query.starting_after ?? '' },
      rpcOptions(res),
    );
    res.json(toCardListJson(response));
  });

  router.get('/cards/:id', authenticate, async (req, res) => {
    const id = cardIdOf(req);
    const caller = callerOf(res);
    const response = await aboutPathId(() => clients.vault.getCard({ caller, card_id: id }, rpcOptions(res)));
    // A restricted key sees only the cards it saved; another key's card reads as absent.
    if (!response.card || (caller.restricted && response.card.source_key_id !== caller.key_id)) throw new AppError('not_found', { param: 'id' });
    res.json(toCardJson(response.card));
  });

  router.delete('/cards/:id', authenticate, fullKeyOnly, async (req, res) => {
    const id = cardIdOf(req);
    const response = await aboutPathId(() => clients.vault.deleteCard({ caller: callerOf(res), card_id: id }, rpcOptions(res)));
    if (!response.card) throw new AppError('not_found', { param: 'id' });
    res.json({ ...toCardJson(response.card), deleted: true });
  });

  return router;
}
