/**
 * Over 300 lines: every write of a webhook endpoint (create, update, rotate, delete, failing and
 * disabling) is one conditional write with its event, and each must drop the fan-out's cache; they
 * stay together so none can miss it.
 */
import { AppError, newId, withOutbox, type EventEnvelope, type InvalidatingCache, type OutboxRelay, type SecretBox } from '@orquestra/platform';
import type { Collection, Document } from 'mongodb';
import { newWebhookSecret, signingSecrets } from '../domain/webhook-secret';
import type { DisabledReason, StoredSecret, WebhookEndpointDoc, WebhookEndpointModel } from './webhook-endpoint.model';

export interface Scope {
  merchant_id: string;
  mode: 'test' | 'live';
}

export interface EndpointChanges {
  url?: string;
  events?: string[];
  description?: string;
  enabled?: boolean;
  only_source?: string | null;
}

/** The public webhook endpoint object (as events carry it); the secret is never part of it. */
export function publicEndpointObject(doc: WebhookEndpointDoc, now: Date = new Date()): Record<string, unknown> {
  const previous = doc.secrets.find((secret) => secret.expires_at !== null && secret.expires_at.getTime() > now.getTime());
  return {
    id: doc._id,
    object: 'webhook_endpoint',
    url: doc.url,
    events: doc.events,
    only_source: doc.only_source,
    description: doc.description || null,
    enabled: doc.enabled,
    disabled_reason: doc.disabled_reason,
    mode: doc.mode,
    failing_since: doc.failing_since ? doc.failing_since.toISOString() : null,
    previous_secret_expires_at: previous?.expires_at ? previous.expires_at.toISOString() : null,
    created_at: doc.created_at.toISOString(),
    updated_at: doc.updated_at.toISOString(),
  };
}

/** Rounds of read-and-write a change computed from a read gets before giving up on concurrent changes. */
const MAX_ROUNDS = 5;

/** The filter a write computed from `read` adds: nothing that shows in the endpoint changed since. */
function unchangedSince(read: WebhookEndpointDoc): { _id: string; version: number | null } {
  // Endpoints written before the version field have none; a null filter matches exactly those.
  return { _id: read._id, version: read.version ?? null };
}

function lostRaces(id: string): Error {
  return new Error(`webhook endpoint ${id} kept changing during the write; try again`);
}

/**
 * Webhook endpoints. Every change is one conditional single-document write (no lock protocol):
 * the expected state is in the filter, every change to what the endpoint shows increments
 * `version`, and a change computed from a read (rotation, disabling with its announcement)
 * expects the version it read and re-reads on a lost race. Disabling writes its
 * `webhook_endpoint.disabled` event in the same write (outbox).
 */
export class WebhookEndpointStore {
  constructor(
    readonly model: WebhookEndpointModel,
    private readonly box: SecretBox,
    private readonly outbox: OutboxRelay,
    private readonly overlapMs: number,
  ) {}

  /** Each merchant's enabled endpoints, read by the fan-out of every event (set by cacheEnabled). */
  private enabledCache: InvalidatingCache<WebhookEndpointDoc[]> | undefined;
  private signalChange: (scope: Scope) => void = () => undefined;

  get collection(): Collection<Document> {
    return this.model.collection;
  }

  /**
   * Serves `enabledFor` from `cache`, dropped by this store's own writes and, through `signal`, on
   * every other replica (docs/decisions.md "Caches"). A stale entry (while a signal is on its way,
   * or up to the time-to-live when one was lost) can send one more event to an endpoint just
   * disabled or changed, or sign with the previous secret only, which keeps signing for the
   * overlap after a rotation; retries read the endpoint again.
   */
  cacheEnabled(cache: InvalidatingCache<WebhookEndpointDoc[]>, signal: (scope: Scope) => void): void {
    this.enabledCache = cache;
    this.signalChange = signal;
  }

  /** Another replica changed a merchant's endpoints (its signal), or this one did. */
  endpointsChanged(scope: Scope): void {
    this.enabledCache?.invalidate(cacheKey(scope));
  }

  private changed(scope: Scope): void {
    this.endpointsChanged(scope);
    this.signalChange({ merchant_id: scope.merchant_id, mode: scope.mode });
  }

  private sealNew(now: Date): { secret: string; stored: StoredSecret } {
    const secret = newWebhookSecret();
    return { secret, stored: { id: newId('webhookEndpoint').replace(/^we_/, 'whs_'), sealed: this.box.seal(secret), created_at: now, expires_at: null } };
  }

  async create(scope: Scope, input: { url: string; events: string[]; only_source: string | null; description: string }): Promise<{ doc: WebhookEndpointDoc; secret: string }> {
    const now = new Date();
    const { secret, stored } = this.sealNew(now);
    const doc: WebhookEndpointDoc = {
      _id: newId('webhookEndpoint'),
      ...scope,
      ...input,
      enabled: true,
      disabled_reason: null,
      secrets: [stored],
      failing_since: null,
      due_at: null,
      version: 0,
      created_at: now,
      updated_at: now,
      outbox: [],
      outbox_since: null,
    };
    await this.model.create(doc);
    this.changed(scope);
    return { doc, secret };
  }

  async find(scope: Scope, id: string): Promise<WebhookEndpointDoc | null> {
    return this.model.findOne({ _id: id, ...scope }).lean<WebhookEndpointDoc>();
  }

  async get(scope: Scope, id: string): Promise<WebhookEndpointDoc> {
    const doc = await this.find(scope, id);
    if (!doc) throw notFound();
    return doc;
  }

  async list(scope: Scope, limit: number, startingAfter: string): Promise<{ data: WebhookEndpointDoc[]; has_more: boolean }> {
    const filter: Record<string, unknown> = { ...scope };
    if (startingAfter) filter._id = { $lt: startingAfter };
    const docs = await this.model.find(filter).sort({ _id: -1 }).limit(limit + 1).lean<WebhookEndpointDoc[]>();
    return { data: docs.slice(0, limit), has_more: docs.length > limit };
  }

  /**
   * The merchant's enabled endpoints in a mode, whole: the fan-out matches events to them and hands
   * each to the delivery it queues, whose first attempt then need not read the endpoint again. Not
   * cached: endpoints change on any replica, and a stale list would lose or misroute deliveries.
   */
  async enabledFor(merchantId: string, mode: 'test' | 'live'): Promise<WebhookEndpointDoc[]> {
    const load = () => this.model.find({ merchant_id: merchantId, mode, enabled: true }).lean<WebhookEndpointDoc[]>().exec();
    return this.enabledCache ? this.enabledCache.get(cacheKey({ merchant_id: merchantId, mode }), load) : load();
  }

  async byId(id: string): Promise<WebhookEndpointDoc | null> {
    return this.model.findById(id).lean<WebhookEndpointDoc>();
  }

  /**
   * Applies a merchant's changes. Enabling or disabling depends on whether the endpoint is enabled
   * now, so the write expects the `enabled` it read (a concurrent disabling makes it re-read).
   */
  async update(scope: Scope, id: string, changes: EndpointChanges): Promise<WebhookEndpointDoc> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const current = await this.get(scope, id);
      const set: Record<string, unknown> = { updated_at: new Date() };
      for (const key of ['url', 'events', 'description', 'only_source'] as const) if (changes[key] !== undefined) set[key] = changes[key];
      if (changes.enabled === true && !current.enabled) Object.assign(set, { enabled: true, disabled_reason: null, failing_since: null, due_at: null });
      // A disabled endpoint is never disabled again for failing: its schedule ends here.
      if (changes.enabled === false && current.enabled) Object.assign(set, { enabled: false, disabled_reason: 'by_request', due_at: null });
      const updated = await this.model
        .findOneAndUpdate({ _id: id, ...scope, enabled: current.enabled }, { $set: set, $inc: { version: 1 } }, { new: true })
        .lean<WebhookEndpointDoc>();
      if (updated) {
        this.changed(scope);
        return updated;
      }
    }
    throw lostRaces(id);
  }

  async delete(scope: Scope, id: string): Promise<void> {
    const result = await this.model.deleteOne({ _id: id, ...scope });
    if (result.deletedCount === 0) throw notFound();
    this.changed(scope);
  }

  /**
   * A new current secret; the previous one keeps signing for the overlap (24 h). The new list is
   * computed from the one read, so the write expects the version read: two rotations at once both
   * take effect, one after the other, and each caller gets a secret that signs.
   */
  async rotateSecret(scope: Scope, id: string): Promise<{ doc: WebhookEndpointDoc; secret: string }> {
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const current = await this.get(scope, id);
      const now = new Date();
      const overlapEnd = new Date(now.getTime() + this.overlapMs);
      const kept = signingSecrets(current.secrets, now).map((stored) => ({
        ...stored,
        expires_at: stored.expires_at === null || stored.expires_at > overlapEnd ? overlapEnd : stored.expires_at,
      }));
      const { secret, stored } = this.sealNew(now);
      const doc = await this.model
        .findOneAndUpdate({ ...unchangedSince(current), ...scope }, { $set: { secrets: [stored, ...kept], updated_at: now }, $inc: { version: 1 } }, { new: true })
        .lean<WebhookEndpointDoc>();
      if (doc) {
        this.changed(scope);
        return { doc, secret };
      }
    }
    throw lostRaces(id);
  }

  /** The plain secrets that sign a delivery now, newest first. */
  signingSecrets(doc: WebhookEndpointDoc, now: Date = new Date()): string[] {
    return signingSecrets(doc.secrets, now).map((stored) => this.box.open(stored.sealed));
  }

  /** Records a successful delivery: the endpoint is no longer failing (writes only when it was). */
  async markHealthy(id: string): Promise<void> {
    await this.model.updateOne({ _id: id, failing_since: { $ne: null } }, { $set: { failing_since: null, due_at: null }, $inc: { version: 1 } });
  }

  /**
   * Records a failed delivery. Answers true when this failure disabled the endpoint: it answered
   * 410 Gone, or it has been failing for `disableAfterMs`. The first failure also schedules the
   * endpoint's disabling (due work, see disableIfStillFailing) for when that period ends.
   */
  async markFailing(id: string, options: { gone: boolean; disableAfterMs: number; now?: Date }): Promise<boolean> {
    const now = options.now ?? new Date();
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const current = await this.byId(id);
      if (!current || !current.enabled) return false;
      const since = current.failing_since ?? now;
      const reason: DisabledReason | null = options.gone ? 'gone' : now.getTime() - since.getTime() >= options.disableAfterMs ? 'failing' : null;
      if (reason) {
        if (await this.disable(current, reason, since, now)) return true;
        continue;
      }
      if (current.failing_since) return false;
      // The first failure: only one of concurrent failures starts the period (failing_since null).
      const started = await this.model.updateOne(
        { _id: id, enabled: true, failing_since: null },
        { $set: { failing_since: now, due_at: new Date(now.getTime() + options.disableAfterMs) }, $inc: { version: 1 } },
      );
      if (started.modifiedCount === 1) return false;
    }
    throw lostRaces(id);
  }

  /**
   * The scheduled end of the disable period, for the endpoint as the DueWorker claimed it (its
   * due_at is the lease end): disables it if it is still failing since the same first failure (a
   * success in between cleared the schedule). Answers true when it did. Every outcome ends the
   * claim in the same write: disabled, rescheduled, or nothing left to schedule.
   */
  async disableIfStillFailing(claimed: WebhookEndpointDoc, disableAfterMs: number, now: Date = new Date()): Promise<boolean> {
    let current: WebhookEndpointDoc | null = claimed;
    for (let round = 0; round < MAX_ROUNDS; round++) {
      if (!current) return false;
      const since = current.failing_since;
      if (!current.enabled || !since || now.getTime() - since.getTime() < disableAfterMs) {
        const next = current.enabled && since ? new Date(since.getTime() + disableAfterMs) : null;
        // Only while the schedule is still this claim's: a success or a new failure meanwhile wrote its own.
        await this.model.updateOne({ _id: current._id, due_at: current.due_at ?? null }, { $set: { due_at: next } });
        return false;
      }
      if (await this.disable(current, 'failing', since, now)) return true;
      current = await this.byId(claimed._id);
    }
    throw lostRaces(claimed._id);
  }

  /**
   * Disables the endpoint as read in `current`, with its `webhook_endpoint.disabled` event (built
   * from that read) in the same write, and publishes it. False when the endpoint changed since the
   * read: nothing was written, and the caller decides again from a fresh read.
   */
  private async disable(current: WebhookEndpointDoc, reason: DisabledReason, since: Date, now: Date): Promise<boolean> {
    const disabled: WebhookEndpointDoc = { ...current, enabled: false, disabled_reason: reason, failing_since: since, updated_at: now };
    const event: EventEnvelope = {
      id: newId('event'),
      type: 'webhook_endpoint.disabled',
      created: Math.floor(now.getTime() / 1000),
      merchant_id: current.merchant_id,
      mode: current.mode,
      source: null,
      data: { object: publicEndpointObject(disabled) },
    };
    const result = await this.model.updateOne(
      { ...unchangedSince(current), enabled: true },
      withOutbox({ $set: { enabled: false, disabled_reason: reason, failing_since: since, due_at: null, updated_at: now }, $inc: { version: 1 } }, [event]),
    );
    if (result.modifiedCount !== 1) return false;
    this.changed({ merchant_id: current.merchant_id, mode: current.mode });
    await this.outbox.flush(this.collection, current._id);
    return true;
  }
}

function cacheKey(scope: Scope): string {
  return `${scope.merchant_id}:${scope.mode}`;
}

function notFound(): AppError {
  return new AppError('not_found', { param: 'id', message: 'Endpoint de webhook não encontrado. Confira o id (we_…) e o modo da chave.' });
}
