/**
 * `GET /recipients/default`, `GET /recipients/:id`, `GET /recipients/:id/balance`,
 * `POST /recipients/:id/withdrawals` (with `idempotency-key`), `GET /recipients/:id/withdrawals[/:wid]`
 * (withdrawals.ts), for the account's own recipient; withdrawals also for the recipients it created
 * (their own balance, to their own bank account; only once `active`); recipients created by API are
 * recipients.routes.ts, mounted first (it also lists them all). The control routes are the kit's (payout-book.ts `payoutControlRoutes`, the
 * account named by its secret key or id in `account`).
 */
import { Router } from 'express';
import { z } from 'zod';
import { InsufficientBalanceError } from '../../kit';
import type { EmulatorState } from './emulator-state';
import { idempotentReplay } from './idempotency';
import { PagarmeApiError, pagarmeErrors } from './pagarme-errors';
import { newWithdrawalId, recipientIdFor } from './pagarme-ids';
import { DEFAULT_BANK_ACCOUNT, withdrawalJson } from './withdrawals';
import type { StoredRecipient } from './recipients';

const accountOf = (res: { locals: Record<string, unknown> }) => res.locals['accountId'] as string;

/** The account's own (default) recipient. */
export function recipientJson(state: EmulatorState, accountId: string) {
  return {
    id: recipientIdFor(accountId),
    name: state.accountName(accountId),
    email: 'financeiro@orquestra.example',
    document: DEFAULT_BANK_ACCOUNT.holder_document,
    type: 'company',
    status: 'active',
    default_bank_account: { id: 'ba_default', ...DEFAULT_BANK_ACCOUNT },
    transfer_settings: { transfer_enabled: false, transfer_interval: 'Daily', transfer_day: 0 },
  };
}

const positiveInt = (value: unknown, fallback: number, max: number) => Math.min(Math.max(typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : fallback, 1), max);
const withdrawSchema = z.object({ amount: z.number().int().positive(), metadata: z.record(z.string()).optional() });

export function withdrawalRoutes(state: EmulatorState, options: { feeCents: number }): Router {
  const router = Router();
  const book = state.withdrawals;
  /** The account's own recipient, or 404 as Pagar.me answers another account's. */
  const ownRecipient = (accountId: string, id: unknown): string => {
    const own = recipientIdFor(accountId);
    if (id !== own) throw new PagarmeApiError(404, { message: 'Recipient not found.' });
    return own;
  };
  /**
   * Whose withdrawals: the account's own recipient (balance under the account id) or one it created
   * (balance under the recipient id, paid to its own bank account); another account's → 404.
   */
  const withdrawer = (accountId: string, id: unknown): { recipientId: string; owner: string; created?: StoredRecipient } => {
    const created = typeof id === 'string' && id !== recipientIdFor(accountId) ? state.recipientOf(accountId, id) : undefined;
    if (created && created.id === id) return { recipientId: created.id, owner: created.id, created };
    return { recipientId: ownRecipient(accountId, id), owner: accountId };
  };

  router.get('/recipients/default', (_req, res) => {
    res.status(200).json(recipientJson(state, accountOf(res)));
  });

  router.get('/recipients/:id', (req, res) => {
    ownRecipient(accountOf(res), req.params['id']);
    res.status(200).json(recipientJson(state, accountOf(res)));
  });

  router.get('/recipients/:id/balance', (req, res) => {
    const accountId = accountOf(res);
    ownRecipient(accountId, req.params['id']);
    const { available, pending } = book.balance(accountId);
    res.status(200).json({
      currency: 'BRL',
      available_amount: available,
      waiting_funds_amount: pending,
      transferred_amount: book.list(accountId).filter((w) => w.status === 'paid').reduce((sum, w) => sum + w.amount, 0),
      recipient: recipientJson(state, accountId),
    });
  });

  router.post('/recipients/:id/withdrawals', idempotentReplay(state), (req, res) => {
    const accountId = accountOf(res);
    const { recipientId, owner, created } = withdrawer(accountId, req.params['id']);
    // A recipient still in KYC (or refused, blocked) cannot move money out (the emulator's wording).
    if (created && created.status !== 'active') throw new PagarmeApiError(412, { message: `Recipient status does not allow withdrawals: ${created.status}.` });
    const parsed = withdrawSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw pagarmeErrors.invalid({ [parsed.error.issues[0]?.path.join('.') || 'amount']: [parsed.error.issues[0]?.message ?? 'invalid'] }, req.body);
    let withdrawal;
    try {
      const id = newWithdrawalId();
      withdrawal = book.create(owner, id, id, parsed.data.amount, options.feeCents, {
        recipientId,
        metadata: parsed.data.metadata ?? {},
        ...(created ? { bankAccount: { id: created.bankAccountId, ...created.request.default_bank_account } } : {}),
      }).transfer;
    } catch (err) {
      if (!(err instanceof InsufficientBalanceError)) throw err;
      throw new PagarmeApiError(412, { message: `Insufficient balance. Available amount: ${err.available}.` });
    }
    const withheld = book.takeWithheld(owner);
    if (withheld) {
      // Made; the key already replays it (as at Pagar.me), while this answer never arrives.
      const key = res.locals['idempotencyKey'];
      if (typeof key === 'string') state.remember(accountId, key, 200, withdrawalJson(withdrawal));
      return book.withhold(res, withheld);
    }
    res.status(200).json(withdrawalJson(withdrawal));
  });

  router.get('/recipients/:id/withdrawals', (req, res) => {
    const { owner } = withdrawer(accountOf(res), req.params['id']);
    const page = positiveInt(req.query['page'], 1, 1_000_000);
    const size = positiveInt(req.query['size'], 10, 100);
    // Newest first (the book keeps creation order).
    const all = book.list(owner).reverse();
    res.status(200).json({ data: all.slice((page - 1) * size, page * size).map(withdrawalJson), paging: { total: all.length } });
  });

  router.get('/recipients/:id/withdrawals/:wid', (req, res) => {
    const { owner } = withdrawer(accountOf(res), req.params['id']);
    const withdrawal = book.get(owner, req.params['wid'] ?? '');
    if (!withdrawal) throw new PagarmeApiError(404, { message: 'Withdrawal not found.' });
    res.status(200).json(withdrawalJson(withdrawal));
  });

  return router;
}

