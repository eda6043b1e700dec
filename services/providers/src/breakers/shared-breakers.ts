import { randomUUID } from 'node:crypto';
import { PROVIDER_BREAKERS_CHANGED, providerBreakersChangedSchema, type ProviderBreakersChanged } from '@orquestra/contracts';
import type { EventBus, Logger } from '@orquestra/platform';
import type { BreakerStateDoc, BreakerStateModel } from '../db/breaker-state.model';
import type { BreakerRegistry, BreakerState } from './breaker-registry';

export interface SharedBreakersOptions {
  /** The breakers' reset timeout: how long a shared `open` lasts at most. */
  resetTimeoutMs: number;
  /** How often the store is read for transitions a signal did not bring. */
  syncMs: number;
  /** This replica's id (a random one when not given). */
  replica?: string;
}

/**
 * One view of the circuit breakers across providers replicas. Each replica keeps its own opossum
 * breakers (BreakerRegistry) and counts its own calls; what it concludes is shared:
 *
 * - a transition of its own (`open` after failures or a failed trial, `closed` after a successful
 *   trial) is kept in `breaker_states` (the later `changed_at` wins) and broadcast as
 *   `internal.provider_breakers.changed` to every replica;
 * - a transition of another replica (by signal, or found in the store every `syncMs` and at start)
 *   is applied to this replica's breaker when it is the latest known for the account: `open` while
 *   it has not lasted its reset timeout, `closed` always.
 *
 * So every replica refuses charges through, and reports to routing, the same open breakers within
 * the broker's delay (the store bounds a lost signal to `syncMs`). Half-open stays each replica's
 * own: each runs one recovery trial when its timer ends, and the first that succeeds closes the
 * account everywhere.
 */
export class SharedBreakers {
  readonly replica: string;
  /** Per account, the `changed_at` (ms) of the latest transition this replica made or applied. */
  private readonly latest = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  private syncedUpTo = 0;

  constructor(
    private readonly model: BreakerStateModel,
    private readonly registry: BreakerRegistry,
    private readonly publish: (change: ProviderBreakersChanged) => Promise<void>,
    private readonly logger: Logger,
    private readonly options: SharedBreakersOptions,
  ) {
    this.replica = options.replica ?? `providers-${randomUUID()}`;
  }

  /** Reads what other replicas concluded (breakers open now), then keeps reading every `syncMs`. */
  async start(): Promise<void> {
    this.syncedUpTo = Date.now() - this.options.resetTimeoutMs;
    await this.sync();
    this.timer = setInterval(() => void this.sync(), this.options.syncMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** For BreakerRegistry.onStateChange: shares a transition of this replica's own. */
  async onStateChange(accountId: string, state: BreakerState, origin: 'local' | 'peer'): Promise<void> {
    if (origin !== 'local' || state === 'half_open') return;
    const changedAt = new Date(Math.max(Date.now(), (this.latest.get(accountId) ?? 0) + 1));
    this.latest.set(accountId, changedAt.getTime());
    const until = state === 'open' ? new Date(changedAt.getTime() + this.options.resetTimeoutMs) : null;
    try {
      await this.model.updateOne(
        { _id: accountId, changed_at: { $lt: changedAt } },
        { $set: { state, changed_at: changedAt, until, replica: this.replica } },
        { upsert: true },
      );
    } catch (error) {
      // A later transition is stored already (the upsert met its document): it stands.
      if ((error as { code?: number }).code !== 11000) {
        this.logger.warn({ account_id: accountId, err: (error as Error).message }, 'breaker transition not stored; the signal still shares it');
      }
    }
    await this.publish({ account_id: accountId, state, changed_at: changedAt.toISOString(), replica: this.replica });
  }

  /** For the subscription: applies another replica's transition. */
  onSignal(object: unknown): void {
    const parsed = providerBreakersChangedSchema.safeParse(object);
    if (!parsed.success) {
      this.logger.warn('unreadable breaker signal; the next store read brings the state');
      return;
    }
    const { account_id, state, changed_at, replica } = parsed.data;
    const changedAt = new Date(changed_at);
    this.apply({
      _id: account_id,
      state,
      changed_at: changedAt,
      until: state === 'open' ? new Date(changedAt.getTime() + this.options.resetTimeoutMs) : null,
      replica,
    });
  }

  /** Reads transitions stored since the last read (with a margin for writes still landing). */
  async sync(): Promise<void> {
    const startedAt = Date.now();
    try {
      const since = new Date(this.syncedUpTo - Math.max(this.options.syncMs, 5_000));
      const docs = await this.model.find({ changed_at: { $gte: since } }).sort({ changed_at: 1 }).lean<BreakerStateDoc[]>();
      for (const doc of docs) this.apply(doc);
      this.syncedUpTo = startedAt;
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'breaker states not read; signals still apply');
    }
  }

  private apply(doc: BreakerStateDoc): void {
    if (doc.replica === this.replica) return;
    const changedAt = doc.changed_at.getTime();
    if (changedAt <= (this.latest.get(doc._id) ?? 0)) return;
    this.latest.set(doc._id, changedAt);
    // An open breaker whose reset timeout has passed elsewhere is half-open there by now: trials decide.
    if (doc.state === 'open' && (doc.until?.getTime() ?? 0) <= Date.now()) return;
    if (this.registry.applyPeer(doc._id, doc.state)) {
      this.logger.info({ account_id: doc._id, state: doc.state, from: doc.replica }, 'breaker state applied from another replica');
    }
  }
}

/**
 * Wires a replica's breakers to the others (as main.ts does): its own transitions stored and
 * broadcast, the others' applied from the signal and the store, and `onChange` told of every
 * change of state, its own or applied (providers tells routing, which reads the accounts again).
 */
export async function shareBreakers(options: {
  bus: EventBus;
  model: BreakerStateModel;
  breakers: BreakerRegistry;
  logger: Logger;
  resetTimeoutMs: number;
  syncMs: number;
  replica?: string;
  onChange?: (accountId: string, state: BreakerState) => void;
}): Promise<SharedBreakers> {
  const shared = new SharedBreakers(
    options.model,
    options.breakers,
    (change) => options.bus.signal(PROVIDER_BREAKERS_CHANGED, { merchant_id: '', mode: 'test' }, change),
    options.logger,
    { resetTimeoutMs: options.resetTimeoutMs, syncMs: options.syncMs, replica: options.replica },
  );
  options.breakers.onStateChange = (accountId, state, origin) => {
    options.onChange?.(accountId, state);
    void shared.onStateChange(accountId, state, origin);
  };
  // A transition missed while the subscription was down is read from the store when it is bound again.
  await options.bus.subscribe([PROVIDER_BREAKERS_CHANGED], (event) => shared.onSignal(event.data?.object), () => void shared.sync());
  await shared.start();
  return shared;
}
