/**
 * `GET /v3/finance/balance`, `POST /v3/transfers`, `GET /v3/transfers`, `GET /v3/transfers/:id`
 * (transfers.ts). The control routes are the kit's (payout-book.ts `payoutControlRoutes`, the
 * account named by its API key in `account`).
 */
import { Router } from 'express';
import { InsufficientBalanceError } from '../../kit';
import { accountOf } from './access-token';
import { asaasErrors } from './asaas-errors';
import { newUuid } from './asaas-ids';
import { listJson, pageOf } from './asaas-json';
import type { EmulatorState } from './emulator-state';
import { sendJson } from './json-body';
import { centsToReaisText, Reais, reaisTextToCents } from './money-json';
import { asBody, optionalString, requiredString } from './request-fields';
import { PIX_KEY_TYPES, transferJson, type PixKeyType } from './transfers';

export interface TransferRoutesOptions {
  /** Fee of a Pix transfer, in cents (default 0: Asaas's first Pix transfers of a month are free). */
  transferFeeCents: number;
}

export function transferRoutes(state: EmulatorState, notify: (accountId: string, event: string, transfer: unknown) => void, options: TransferRoutesOptions): Router {
  const router = Router();
  const book = state.transfers;

  router.get('/finance/balance', (_req, res) => {
    sendJson(res, 200, { balance: new Reais(book.balance(accountOf(res).id).available) });
  });

  router.post('/transfers', (req, res) => {
    const account = accountOf(res);
    const body = asBody(req.body);
    const raw = body['value'];
    const valueCents = typeof raw === 'string' ? reaisTextToCents(raw) : undefined;
    if (valueCents === undefined || valueCents <= 0) throw asaasErrors.invalid('value', 'O valor da transferência deve ser maior que zero.');
    if (body['bankAccount'] !== undefined) throw asaasErrors.invalid('bankAccount', 'Transferência para conta bancária não suportada pelo emulador: informe pixAddressKey.');
    const pixAddressKey = requiredString(body, 'pixAddressKey', 140);
    const pixAddressKeyType = requiredString(body, 'pixAddressKeyType', 10) as PixKeyType;
    if (!PIX_KEY_TYPES.includes(pixAddressKeyType)) throw asaasErrors.invalid('pixAddressKeyType', 'O tipo de chave Pix informado é inválido.');
    const description = optionalString(body, 'description', 140);
    const externalReference = optionalString(body, 'externalReference', 255);
    // No idempotency key at Asaas: every create is a new transfer (its own id is its book key).
    const id = newUuid();
    let transfer;
    try {
      transfer = book.create(account.id, id, id, valueCents, options.transferFeeCents, {
        pixAddressKey,
        pixAddressKeyType,
        ...(description ? { description } : {}),
        ...(externalReference ? { externalReference } : {}),
      }).transfer;
    } catch (err) {
      if (!(err instanceof InsufficientBalanceError)) throw err;
      throw asaasErrors.invalidAction(`Saldo insuficiente para realizar a transferência. Saldo disponível: R$ ${centsToReaisText(err.available)}.`);
    }
    notify(account.id, 'TRANSFER_CREATED', transferJson(transfer));
    const withheld = book.takeWithheld(account.id);
    // Made; its answer never arrives (the connection closes after the delay).
    if (withheld) return book.withhold(res, withheld);
    sendJson(res, 200, transferJson(transfer));
  });

  router.get('/transfers', (req, res) => {
    // Newest first, as Asaas lists (the book keeps creation order).
    const transfers = book.list(accountOf(res).id).reverse();
    sendJson(res, 200, listJson(transfers, pageOf(req.query), transferJson));
  });

  router.get('/transfers/:id', (req, res) => {
    const transfer = book.get(accountOf(res).id, req.params['id'] ?? '');
    if (!transfer) throw asaasErrors.notFound('Transferência');
    sendJson(res, 200, transferJson(transfer));
  });

  return router;
}
