import { DueWorker, isDuplicateKeyError, withOutbox, type OutboxRelay } from '@orquestra/platform';
import type { Logger } from 'pino';
import type { DisputePollDoc, DisputePollModel } from '../db/dispute-poll.model';
import type { ProviderAccountDoc, ProviderAccountModel } from '../db/provider-account.model';
import { disputeEvent } from '../domain/dispute-reports';
import type { ProviderAccountService } from '../domain/provider-account.service';

export interface DisputePollOptions {
  /** Time between two polls of one account. */
  intervalMs: number;
  /** How far back each poll looks (disputes are listed by opening date). */
  lookbackDays: number;
}

/**
 * Polls providers that expose their disputes as a list (Efí `GET /v2/gn/infracoes`) for every
 * connected account of theirs, and publishes `internal.provider_dispute.updated` for each dispute
 * that is new or changed since the last poll (the same event Woovi's webhooks produce).
 *
 * Each account's poll is due work on its own document (`dispute_polls`), so replicas share the
 * polls and never run one twice at once (DueWorker's lease). The events are written with the poll's
 * result in one update (outbox), so a crash between the two loses nothing; payments dedupes a
 * report it already applied. An account's document is created (once, unique `_id`) by a seeding
 * pass that runs every interval, so newly connected accounts are picked up.
 */
export class DisputePollWorker {
  readonly worker: DueWorker<DisputePollDoc>;
  private seeder: NodeJS.Timeout | undefined;

  constructor(
    private readonly polls: DisputePollModel,
    private readonly accountModel: ProviderAccountModel,
    private readonly accounts: ProviderAccountService,
    private readonly outbox: OutboxRelay,
    private readonly logger: Logger,
    private readonly options: DisputePollOptions,
  ) {
    this.worker = new DueWorker<DisputePollDoc>({
      name: 'provider-dispute-poll',
      collection: polls.collection,
      logger,
      pollIntervalMs: Math.min(1_000, options.intervalMs),
      // A poll is a few HTTP calls; longer than the provider timeout, shorter than the interval.
      leaseMs: 60_000,
      handle: (doc) => this.poll(doc),
    });
  }

  start(): void {
    void this.seed();
    this.seeder = setInterval(() => void this.seed(), this.options.intervalMs);
    this.seeder.unref();
    this.worker.start();
  }

  async stop(): Promise<void> {
    if (this.seeder) clearInterval(this.seeder);
    await this.worker.stop();
  }

  /** Creates the poll document of every account whose provider lists disputes (idempotent). */
  async seed(): Promise<number> {
    let added = 0;
    try {
      const all = await this.accountModel.find({}).lean<ProviderAccountDoc[]>().exec();
      for (const account of all) {
        if (!this.pollable(account)) continue;
        try {
          const result = await this.polls.updateOne(
            { _id: account._id },
            { $setOnInsert: { provider: account.provider, due_at: new Date(), seen: [], last_polled_at: null, outbox: [], outbox_since: null } },
            { upsert: true },
          );
          added += result.upsertedCount;
        } catch (error) {
          // Two replicas seeding the same account at once: the other one created it.
          if (!isDuplicateKeyError(error)) throw error;
        }
      }
      if (added > 0) this.worker.kick();
    } catch (error) {
      this.logger.warn({ err: (error as Error).message }, 'dispute poll seeding failed');
    }
    return added;
  }

  private pollable(account: ProviderAccountDoc): boolean {
    try {
      return typeof this.accounts.adapterFor(account).listDisputes === 'function';
    } catch {
      return false;
    }
  }

  /** One poll of one account: list, compare with what was seen, publish the differences, reschedule. */
  private async poll(doc: DisputePollDoc): Promise<void> {
    const next = new Date(Date.now() + this.options.intervalMs);
    const account = await this.accounts.getUnscoped(doc._id);
    if (!account) {
      await this.polls.updateOne({ _id: doc._id, due_at: doc.due_at }, { $set: { due_at: null } });
      return;
    }
    const until = new Date();
    const since = new Date(until.getTime() - this.options.lookbackDays * 86_400_000);
    let found;
    try {
      found = await this.accounts.call(account, (a) => (a.listDisputes ? a.listDisputes({ since, until }) : Promise.resolve([])));
    } catch (error) {
      // Unreachable or refusing now: try again at the next interval (nothing was seen, nothing lost).
      this.logger.warn({ account_id: account._id, provider: account.provider, err: (error as Error).message }, 'dispute poll failed');
      await this.polls.updateOne({ _id: doc._id, due_at: doc.due_at }, { $set: { due_at: next } });
      return;
    }
    const seen = new Set(doc.seen ?? []);
    const now = found.map((d) => `${d.providerDisputeId}|${d.status}`);
    const events = found.filter((d) => !seen.has(`${d.providerDisputeId}|${d.status}`)).map((d) => disputeEvent(account, d, 'poll'));
    await this.polls.updateOne({ _id: doc._id, due_at: doc.due_at }, withOutbox({ $set: { seen: now, due_at: next, last_polled_at: until } }, events));
    if (events.length > 0) {
      void this.outbox.flush(this.polls.collection, doc._id);
      this.logger.info({ account_id: account._id, provider: account.provider, reported: events.length }, 'provider disputes polled');
    }
  }
}
