/**
 * Money out of an emulated account, shared by the emulators whose provider pays out by API: the
 * account's balance (moved by payments paid, refunds and transfers), its transfers (made once per
 * the provider's own idempotency handle, refused when the balance does not cover them), how new
 * transfers end (paid or failed after a while, or held in processing until a control call settles
 * them), and "execute then time out": the transfer is made but its HTTP answer never arrives.
 *
 * Each emulator keeps its provider's wire format (Efí's `idEnvio`, Stripe's payout object) in the
 * transfer's `data` and turns a record into its provider's JSON; the book only does the money.
 *
 * @example
 * const book = new PayoutBook<{ chave: string }>(state.now, (t) => sender.notifyTransfer(t));
 * book.credit('client_1', 10_000);
 * const { transfer } = book.create('client_1', 'po01ABC', 5_000, 0, { chave: 'fin@loja.com' });
 * book.settle(transfer.id, 'paid');
 */
import type { Response } from 'express';
import { Router } from 'express';
import { z } from 'zod';
import { sendControlError as fail } from './control-port';
import { refill } from './state-file';
import { Timers } from './timers';

export type TransferState = 'processing' | 'paid' | 'failed';

export interface BookTransfer<D> {
  id: string;
  /** The account (Efí client id, Stripe account id). */
  owner: string;
  /** The provider-side idempotency handle the transfer was made under. */
  key: string;
  amount: number;
  fee: number;
  status: TransferState;
  createdAt: string;
  settledAt?: string;
  failureReason?: string;
  /** What it will become on its own, and when (absent: held until a control call settles it). */
  planned?: { outcome: 'paid' | 'failed'; at: string; failureReason?: string };
  data: D;
}

/** How an account's new transfers end: on their own after `settleAfterMs`, or `hang` (processing until settled by control). */
export interface TransferBehaviour {
  outcome: 'paid' | 'failed' | 'hang';
  settleAfterMs: number;
  failureReason?: string;
}

/** The next `remaining` creates are executed, then their answer is withheld: the connection closes after `delayMs` with no answer. */
export interface WithheldAnswer {
  delayMs: number;
  remaining: number;
}

export interface Balance {
  available: number;
  pending: number;
}

export class InsufficientBalanceError extends Error {
  constructor(
    readonly available: number,
    readonly needed: number,
  ) {
    super(`insufficient balance: ${available} available, ${needed} needed`);
  }
}

const DEFAULT_BEHAVIOUR: TransferBehaviour = { outcome: 'paid', settleAfterMs: 300 };

export class PayoutBook<D> {
  private readonly balances = new Map<string, Balance>();
  private readonly transfers = new Map<string, BookTransfer<D>>();
  /** owner + key → transfer id. */
  private readonly byKey = new Map<string, string>();
  private readonly behaviours = new Map<string, TransferBehaviour>();
  private readonly withheld = new Map<string, WithheldAnswer>();
  private readonly timers = new Timers();

  constructor(
    private readonly now: () => Date,
    /** Called after a transfer settles (paid or failed): the emulator's webhook. */
    private readonly onSettled: (transfer: BookTransfer<D>) => void,
  ) {}

  balance(owner: string): Balance {
    return { ...(this.balances.get(owner) ?? { available: 0, pending: 0 }) };
  }

  /** Money in (a payment paid, net of the provider's fee) or back (a failed transfer). */
  credit(owner: string, cents: number, into: keyof Balance = 'available'): Balance {
    const balance = this.balance(owner);
    balance[into] += cents;
    this.balances.set(owner, balance);
    return { ...balance };
  }

  /** Money out other than transfers (a refund): the balance may go negative, as at a provider that debits refunds. */
  debit(owner: string, cents: number): Balance {
    return this.credit(owner, -cents);
  }

  findByKey(owner: string, key: string): BookTransfer<D> | undefined {
    const id = this.byKey.get(`${owner}\u0000${key}`);
    return id === undefined ? undefined : this.transfers.get(id);
  }

  get(owner: string, id: string): BookTransfer<D> | undefined {
    const transfer = this.transfers.get(id);
    return transfer?.owner === owner ? transfer : undefined;
  }

  /** Any account's transfer (control routes). */
  getAny(id: string): BookTransfer<D> | undefined {
    return this.transfers.get(id);
  }

  list(owner: string): Array<BookTransfer<D>> {
    return [...this.transfers.values()].filter((t) => t.owner === owner);
  }

  /**
   * One transfer per (owner, key): a repeat answers the one already made (`created: false`).
   * Debits amount + fee from the available balance, or throws InsufficientBalanceError.
   */
  create(owner: string, key: string, id: string, amount: number, fee: number, data: D): { transfer: BookTransfer<D>; created: boolean } {
    const existing = this.findByKey(owner, key);
    if (existing) return { transfer: existing, created: false };
    const balance = this.balance(owner);
    if (balance.available < amount + fee) throw new InsufficientBalanceError(balance.available, amount + fee);
    this.credit(owner, -(amount + fee));
    const behaviour = this.behaviourFor(owner);
    const transfer: BookTransfer<D> = { id, owner, key, amount, fee, status: 'processing', createdAt: this.now().toISOString(), data };
    if (behaviour.outcome !== 'hang') {
      transfer.planned = {
        outcome: behaviour.outcome,
        at: new Date(Date.now() + behaviour.settleAfterMs).toISOString(),
        ...(behaviour.failureReason ? { failureReason: behaviour.failureReason } : {}),
      };
    }
    this.transfers.set(id, transfer);
    this.byKey.set(`${owner}\u0000${key}`, id);
    this.schedule(transfer);
    return { transfer, created: true };
  }

  /** Pays or fails a processing transfer now; a failed one gives amount + fee back. False when it was no longer processing. */
  settle(id: string, outcome: 'paid' | 'failed', failureReason?: string): boolean {
    const transfer = this.transfers.get(id);
    if (!transfer || transfer.status !== 'processing') return false;
    transfer.status = outcome;
    transfer.settledAt = this.now().toISOString();
    delete transfer.planned;
    if (outcome === 'failed') {
      transfer.failureReason = failureReason ?? 'Transferência recusada pelo banco de destino.';
      this.credit(transfer.owner, transfer.amount + transfer.fee);
    }
    this.onSettled(transfer);
    return true;
  }

  behaviourFor(owner: string): TransferBehaviour {
    return this.behaviours.get(owner) ?? this.behaviours.get('') ?? DEFAULT_BEHAVIOUR;
  }

  /** Per account, or for every account without one (`owner` empty). */
  setBehaviour(owner: string | undefined, behaviour: TransferBehaviour): void {
    this.behaviours.set(owner ?? '', behaviour);
  }

  withholdAnswers(owner: string, withheld: WithheldAnswer): void {
    this.withheld.set(owner, withheld);
  }

  /** Whether this create's answer is withheld (consumes one). */
  takeWithheld(owner: string): WithheldAnswer | undefined {
    const withheld = this.withheld.get(owner);
    if (!withheld) return undefined;
    if (withheld.remaining <= 1) this.withheld.delete(owner);
    else this.withheld.set(owner, { ...withheld, remaining: withheld.remaining - 1 });
    return withheld;
  }

  /** The transfer was made; its answer is not sent: the connection closes after `delayMs` (past the client's timeout when long). */
  withhold(res: Response, withheld: WithheldAnswer): void {
    const drop = () => res.socket?.destroy();
    if (withheld.delayMs > 0) this.timers.after(withheld.delayMs, drop);
    else drop();
  }

  private schedule(transfer: BookTransfer<D>): void {
    const planned = transfer.planned;
    if (!planned) return;
    this.timers.after(Math.max(0, Date.parse(planned.at) - Date.now()), () => this.settle(transfer.id, planned.outcome, planned.failureReason));
  }

  /** Stops pending settlements (emulator stop). */
  close(): void {
    this.timers.clear();
  }

  /** Forgets transfers, behaviours and withheld answers; balances stay (they are account set-up and payments). */
  reset(): void {
    this.timers.clear();
    this.transfers.clear();
    this.byKey.clear();
    this.behaviours.clear();
    this.withheld.clear();
  }

  snapshot() {
    return { balances: this.balances, transfers: this.transfers, byKey: this.byKey, behaviours: this.behaviours };
  }

  /** After a restart, transfers that were to settle on their own are scheduled again. */
  restore(snapshot: ReturnType<PayoutBook<D>['snapshot']>): void {
    refill(this.balances, snapshot.balances);
    refill(this.transfers, snapshot.transfers);
    refill(this.byKey, snapshot.byKey);
    refill(this.behaviours, snapshot.behaviours);
    for (const transfer of this.transfers.values()) if (transfer.status === 'processing') this.schedule(transfer);
  }
}

const behaviourSchema = (param: string) =>
  z
    .object({
      [param]: z.string().min(1).optional(),
      outcome: z.enum(['paid', 'failed', 'hang']),
      settle_after_ms: z.number().int().min(0).max(600_000).optional(),
      failure_reason: z.string().min(1).max(140).optional(),
    })
    .strict();

const settleSchema = z.object({ outcome: z.enum(['paid', 'failed']), failure_reason: z.string().min(1).max(140).optional() }).strict();

/**
 * The control routes of a PayoutBook, named the same in every emulator (`param` is its account
 * field: `client_id`, `account`; `ownerOf` turns its value into the book's owner):
 * - `POST /__control/balance/credit {<param>, amount, into?: 'available'|'pending'}` → the balance;
 *   `GET /__control/balance?<param>=` → `{available, pending}` (cents).
 * - `POST /__control/transfers/behaviour {<param>?, outcome: paid|failed|hang, settle_after_ms?, failure_reason?}`:
 *   how new transfers end (without the param: every account without its own).
 * - `POST /__control/transfers/withhold-answer {<param>, delay_ms?, times?}`: the next `times`
 *   (default 1) creates are executed and their answer never sent (connection closed after `delay_ms`, default 0).
 * - `POST /__control/transfers/:id/settle {outcome: paid|failed, failure_reason?}`: a processing transfer now (409 otherwise).
 * - `GET /__control/transfers?<param>=` → `{transfers: [...]}`.
 */
export function payoutControlRoutes<D>(book: PayoutBook<D>, param: string, ownerOf: (value: string) => string | undefined, view: (transfer: BookTransfer<D>) => unknown): Router {
  const routes = Router();
  const ownerIn = (res: Response, value: unknown): string | undefined => {
    const owner = typeof value === 'string' && value ? ownerOf(value) : undefined;
    if (!owner) fail(res, 404, 'account_not_found', `unknown or missing ${param}`);
    return owner;
  };
  const creditSchema = z.object({ [param]: z.string().min(1), amount: z.number().int(), into: z.enum(['available', 'pending']).optional() }).strict();
  const withholdSchema = z.object({ [param]: z.string().min(1), delay_ms: z.number().int().min(0).max(600_000).optional(), times: z.number().int().min(1).max(100).optional() }).strict();

  routes.post('/__control/balance/credit', (req, res) => {
    const parsed = creditSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const owner = ownerIn(res, parsed.data[param]);
    if (!owner) return;
    res.status(200).json(book.credit(owner, parsed.data.amount as number, (parsed.data.into as keyof Balance | undefined) ?? 'available'));
  });

  routes.get('/__control/balance', (req, res) => {
    const owner = ownerIn(res, req.query[param]);
    if (owner) res.status(200).json(book.balance(owner));
  });

  routes.post('/__control/transfers/behaviour', (req, res) => {
    const parsed = behaviourSchema(param).safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const value = parsed.data[param] as string | undefined;
    const owner = value === undefined ? undefined : ownerIn(res, value);
    if (value !== undefined && !owner) return;
    const behaviour: TransferBehaviour = {
      outcome: parsed.data.outcome as TransferBehaviour['outcome'],
      settleAfterMs: (parsed.data.settle_after_ms as number | undefined) ?? DEFAULT_BEHAVIOUR.settleAfterMs,
      ...(parsed.data.failure_reason ? { failureReason: parsed.data.failure_reason as string } : {}),
    };
    book.setBehaviour(owner, behaviour);
    res.status(200).json({ scope: owner ?? 'global', outcome: behaviour.outcome, settle_after_ms: behaviour.settleAfterMs });
  });

  routes.post('/__control/transfers/withhold-answer', (req, res) => {
    const parsed = withholdSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const owner = ownerIn(res, parsed.data[param]);
    if (!owner) return;
    const withheld = { delayMs: (parsed.data.delay_ms as number | undefined) ?? 0, remaining: (parsed.data.times as number | undefined) ?? 1 };
    book.withholdAnswers(owner, withheld);
    res.status(200).json({ delay_ms: withheld.delayMs, times: withheld.remaining });
  });

  routes.post('/__control/transfers/:id/settle', (req, res) => {
    const parsed = settleSchema.safeParse(req.body);
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const id = req.params['id'] ?? '';
    const transfer = book.getAny(id);
    if (!transfer) return fail(res, 404, 'transfer_not_found', `no transfer ${id}`);
    if (!book.settle(id, parsed.data.outcome, parsed.data.failure_reason)) return fail(res, 409, 'transfer_not_processing', `transfer is ${transfer.status}`);
    res.status(200).json(view(transfer));
  });

  routes.get('/__control/transfers', (req, res) => {
    const owner = ownerIn(res, req.query[param]);
    if (owner) res.status(200).json({ transfers: book.list(owner).map(view) });
  });

  return routes;
}
