/**
 * Woovi subaccounts: a Pix key the main account splits charges to, holding a balance until it is
 * withdrawn (docs "Como criar uma subconta", "Como acessar saldo e detalhes de uma Subconta via
 * API", "Como listar as Subcontas de uma empresa"; woovibr/woovi-prompts "subaccount"):
 * - `POST /api/v1/subaccount {name, pixKey}` → `{SubAccount{name, pixKey, balance}}`. The Pix key
 *   IS the subaccount: a repeat with a key already registered answers that subaccount as it is
 *   (unconfirmed: the docs do not say whether Woovi answers it or refuses the repeat).
 * - `GET /api/v1/subaccount/{pixKey}` → `{SubAccount{name, pixKey, balance}}` (balance in cents).
 * - `GET /api/v1/subaccount` → `{subAccounts[…], pageInfo}`.
 * - `POST /api/v1/subaccount/{pixKey}/withdraw` ("Como realizar o saque de uma Subconta via API":
 *   "saque integral", no body) → `{transaction{status:"CREATED", value, correlationID,
 *   destinationAlias, comment}}`: the WHOLE balance leaves by Pix to the subaccount's own key, the
 *   balance is 0 after it; a zero balance is a 400. Woovi makes the correlationID (the request
 *   carries none), so a repeat is a new withdrawal of whatever balance there is then. Some SDKs show
 *   an optional `{value}` for a partial withdrawal: not in psp-apis.md, so not emulated (ignored).
 *   Woovi documents no read of a withdrawal; the emulator keeps them for its control route.
 * - Split parts of paid charges fill the balance (splits.ts, EmulatorState.settleCharge).
 * Woovi "checks the key before creating"; the emulator only checks its shape (CPF/CNPJ digits,
 * e-mail, +55 phone, random UUID). There is no identity onboarding and no blocked state in the
 * documented API, so a subaccount has no status here.
 *
 * Control (no Woovi counterpart):
 * `POST /__control/subaccounts/:pixKey/credit {account (AppID), amount}` → `{SubAccount}`;
 * `GET /__control/subaccounts/:pixKey/withdrawals?account=<AppID>` → `{withdrawals[…]}` (oldest first).
 */
import { Router } from 'express';
import { z } from 'zod';
import { randomUUID } from 'node:crypto';
import { refill, sendControlError as fail } from '../../kit';
import { accountOf } from './auth';
import type { EmulatorState } from './emulator-state';
import { wooviErrors } from './woovi-errors';

export interface StoredSubaccount {
  accountId: string;
  name: string;
  pixKey: string;
  /** Cents. */
  balance: number;
  createdAt: string;
  /** Withdrawals made, oldest first (absent in a state file written before them). */
  withdrawals?: StoredWithdrawal[];
}

export interface StoredWithdrawal {
  correlationID: string;
  value: number;
  destinationAlias: string;
  status: 'CREATED';
  time: string;
}

const PIX_KEY = /^(\d{11}|\d{14}|[^@\s]+@[^@\s]+\.[^@\s]+|\+55\d{10,11}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

const createSchema = z.object({
  name: z.string({ required_error: 'name é obrigatório' }).trim().min(1, 'name é obrigatório').max(100, 'name deve ter até 100 caracteres'),
  pixKey: z.string({ required_error: 'pixKey é obrigatório' }).trim().min(1, 'pixKey é obrigatório').regex(PIX_KEY, 'Chave Pix inválida'),
});

/** Subaccounts by account and Pix key. */
export class SubaccountBook {
  private readonly subaccounts = new Map<string, StoredSubaccount>();

  private static keyOf(accountId: string, pixKey: string): string {
    return `${accountId}\u0000${pixKey}`;
  }

  get(accountId: string, pixKey: string): StoredSubaccount | undefined {
    return this.subaccounts.get(SubaccountBook.keyOf(accountId, pixKey));
  }

  /** The one under this key, made now unless it exists. */
  create(accountId: string, name: string, pixKey: string, now: Date): StoredSubaccount {
    const existing = this.get(accountId, pixKey);
    if (existing) return existing;
    const subaccount: StoredSubaccount = { accountId, name, pixKey, balance: 0, createdAt: now.toISOString() };
    this.subaccounts.set(SubaccountBook.keyOf(accountId, pixKey), subaccount);
    return subaccount;
  }

  /** A split part into the subaccount's balance (the caller validated the key at the charge's creation). */
  credit(accountId: string, pixKey: string, value: number): void {
    const subaccount = this.get(accountId, pixKey);
    if (subaccount) subaccount.balance += value;
  }

  /** The whole balance out to the subaccount's own key; undefined when the balance is zero. */
  withdrawAll(subaccount: StoredSubaccount, now: Date): StoredWithdrawal | undefined {
    if (subaccount.balance <= 0) return undefined;
    const withdrawal: StoredWithdrawal = { correlationID: randomUUID(), value: subaccount.balance, destinationAlias: subaccount.pixKey, status: 'CREATED', time: now.toISOString() };
    subaccount.balance = 0;
    subaccount.withdrawals = [...(subaccount.withdrawals ?? []), withdrawal];
    return withdrawal;
  }

  list(accountId: string): StoredSubaccount[] {
    return [...this.subaccounts.values()].filter((s) => s.accountId === accountId);
  }

  clear(): void {
    this.subaccounts.clear();
  }

  snapshot(): Map<string, StoredSubaccount> {
    return this.subaccounts;
  }

  restore(snapshot: Map<string, StoredSubaccount>): void {
    refill(this.subaccounts, snapshot);
  }
}

const json = (s: StoredSubaccount) => ({ name: s.name, pixKey: s.pixKey, balance: s.balance });

export function subaccountRoutes(book: SubaccountBook, state: EmulatorState): Router {
  const router = Router();

  router.post('/subaccount', (req, res) => {
    const parsed = createSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw wooviErrors.invalid(parsed.error.issues[0]?.message ?? 'Requisição inválida');
    res.status(200).json({ SubAccount: json(book.create(accountOf(res), parsed.data.name, parsed.data.pixKey, state.now())) });
  });

  router.get('/subaccount', (req, res) => {
    const all = book.list(accountOf(res));
    const skip = Math.max(0, Number(req.query['skip']) || 0);
    const limit = Math.min(100, Math.max(1, Number(req.query['limit']) || 10));
    res.status(200).json({
      subAccounts: all.slice(skip, skip + limit).map(json),
      pageInfo: { skip, limit, totalCount: all.length, hasPreviousPage: skip > 0, hasNextPage: skip + limit < all.length },
    });
  });

  router.post('/subaccount/:pixKey/withdraw', (req, res) => {
    const subaccount = book.get(accountOf(res), req.params['pixKey'] ?? '');
    if (!subaccount) throw wooviErrors.invalid('Subconta não encontrada');
    const withdrawal = book.withdrawAll(subaccount, state.now());
    if (!withdrawal) throw wooviErrors.invalid('Subconta sem saldo para saque');
    const { correlationID, value, destinationAlias, status } = withdrawal;
    res.status(200).json({ transaction: { status, value, correlationID, destinationAlias, comment: 'Saque integral da subconta' } });
  });

  router.get('/subaccount/:pixKey', (req, res) => {
    const subaccount = book.get(accountOf(res), req.params['pixKey'] ?? '');
    if (!subaccount) throw wooviErrors.invalid('Subconta não encontrada');
    res.status(200).json({ SubAccount: json(subaccount) });
  });

  return router;
}

const creditSchema = z.object({ account: z.string().min(1), amount: z.number().int() }).strict();

export function subaccountControlRoutes(book: SubaccountBook, state: EmulatorState): Router {
  const routes = Router();
  routes.post('/__control/subaccounts/:pixKey/credit', (req, res) => {
    const parsed = creditSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const accountId = state.authenticate(parsed.data.account);
    if (!accountId) return fail(res, 404, 'account_not_found', 'unknown account');
    const subaccount = book.get(accountId, req.params['pixKey'] ?? '');
    if (!subaccount) return fail(res, 404, 'subaccount_not_found', 'no subaccount with this Pix key');
    if (subaccount.balance + parsed.data.amount < 0) return fail(res, 409, 'insufficient_balance', 'the balance cannot go below zero');
    subaccount.balance += parsed.data.amount;
    res.status(200).json({ SubAccount: json(subaccount) });
  });
  routes.get('/__control/subaccounts/:pixKey/withdrawals', (req, res) => {
    const appId = typeof req.query['account'] === 'string' ? req.query['account'] : '';
    const accountId = state.authenticate(appId);
    if (!accountId) return fail(res, 404, 'account_not_found', 'unknown account');
    const subaccount = book.get(accountId, req.params['pixKey'] ?? '');
    if (!subaccount) return fail(res, 404, 'subaccount_not_found', 'no subaccount with this Pix key');
    res.status(200).json({ withdrawals: subaccount.withdrawals ?? [] });
  });
  return routes;
}
