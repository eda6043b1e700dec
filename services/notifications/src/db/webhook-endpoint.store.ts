import { AppError, LockManager, newId, withOutbox, type EventEnvelope, type OutboxRelay, type SecretBox } from '@orquestra/platform';
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

/**
 * Webhook endpoints: every write is one single-document write under the endpoint's document lock
 * (FerretDB applies conditional updates without isolation, see LockManager), and disabling writes
 * its `webhook_endpoint.disabled` event in the same write (outbox).
 */
export class WebhookEndpointStore {
  constructor(
    readonly model: WebhookEndpointModel,
    private readonly box: SecretBox,
    private readonly locks: LockManager,
    private readonly outbox: OutboxRelay,
    private readonly overlapMs: number,
  ) {}

  get collection(): Collection<Document> {
    return this.model.collection as unknown as Collection<Document>;
  }

  private lockName(id: string): string {
    return LockManager.documentLock(this.collection.collectionName, id);
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
      created_at: now,
      updated_at: now,
      outbox: [],
      outbox_since: null,
    };
    await this.model.create(doc);
    return { doc, secret };
  }

  async find(scope: Scope, id: string): Promise<WebhookEndpointDoc | null> {
    return this.model.findOne({ _id: id, ...scope }).lean<WebhookEndpointDoc>();
  }

  async get(scope: Scope, id: string): Promise<WebhookEndpointDoc> {
    const doc = await this.find(scope, id);
    if (!doc) throw new AppError('not_found', { param: 'id', message: 'Endpoint de webhook não encontrado. Confira o id (we_…) e o modo da chave.' });
    return doc;
  }

  async list(scope: Scope, limit: number, startingAfter: string): Promise<{ data: WebhookEndpointDoc[]; has_more: boolean }> {
    const filter: Record<string, unknown> = { ...scope };
    if (startingAfter) filter._id = { $lt: startingAfter };
    const docs = await this.model.find(filter).sort({ _id: -1 }).limit(limit + 1).lean<WebhookEndpointDoc[]>();
    return { data: docs.slice(0, limit), has_more: docs.length > limit };
  }

  /** Every enabled endpoint of a merchant in one mode (fan-out reads this per event). */
  async enabledFor(merchantId: string, mode: 'test' | 'live'): Promise<WebhookEndpointDoc[]> {
    return this.model.find({ merchant_id: merchantId, mode, enabled: true }).lean<WebhookEndpointDoc[]>();
  }

  async byId(id: string): Promise<WebhookEndpointDoc | null> {
    return this.model.findById(id).lean<WebhookEndpointDoc>();
  }

  async update(scope: Scope, id: string, changes: EndpointChanges): Promise<WebhookEndpointDoc> {
    return this.locks.withLock(this.lockName(id), async () => {
      const current = await this.get(scope, id);
      const set: Record<string, unknown> = { updated_at: new Date() };
      for (const key of ['url', 'events', 'description', 'only_source'] as const) if (changes[key] !== undefined) set[key] = changes[key];
      if (changes.enabled === true && !current.enabled) Object.assign(set, { enabled: true, disabled_reason: null, failing_since: null, due_at: null });
      if (changes.enabled === false && current.enabled) Object.assign(set, { enabled: false, disabled_reason: 'by_request' });
      await this.model.updateOne({ _id: id }, { $set: set });
      return (await this.get(scope, id));
    });
  }

  async delete(scope: Scope, id: string): Promise<void> {
    await this.locks.withLock(this.lockName(id), async () => {
      await this.get(scope, id);
      await this.model.deleteOne({ _id: id });
    });
  }

  /** A new current secret; the previous one keeps signing for the overlap (24 h). */
  async rotateSecret(scope: Scope, id: string): Promise<{ doc: WebhookEndpointDoc; secret: string }> {
    return this.locks.withLock(this.lockName(id), async () => {
      const current = await this.get(scope, id);
      const now = new Date();
      const overlapEnd = new Date(now.getTime() + this.overlapMs);
      const kept = signingSecrets(current.secrets, now).map((stored) => ({
        ...stored,
        expires_at: stored.expires_at === null || stored.expires_at > overlapEnd ? overlapEnd : stored.expires_at,
      }));
      const { secret, stored } = this.sealNew(now);
      await this.model.updateOne({ _id: id }, { $set: { secrets: [stored, ...kept], updated_at: now } });
      return { doc: await this.get(scope, id), secret };
    });
  }

  /** The plain secrets that sign a delivery now, newest first. */
  signingSecrets(doc: WebhookEndpointDoc, now: Date = new Date()): string[] {
    return signingSecrets(doc.secrets, now).map((stored) => this.box.open(stored.sealed));
  }

  /** Records a successful delivery: the endpoint is no longer failing. */
  async markHealthy(id: string): Promise<void> {
    await this.locks.withLock(this.lockName(id), async () => {
      await this.model.updateOne({ _id: id, failing_since: { $ne: null } }, { $set: { failing_since: null, due_at: null } });
    });
  }

  /**
   * Records a failed delivery. Answers true when this failure disabled the endpoint: it answered
   * 410 Gone, or it has been failing for `disableAfterMs`. The first failure also schedules the
   * endpoint's disabling (due work, see disableIfStillFailing) for when that period ends.
   */
  async markFailing(id: string, options: { gone: boolean; disableAfterMs: number; now?: Date }): Promise<boolean> {
    const now = options.now ?? new Date();
    return this.locks.withLock(this.lockName(id), async () => {
      const current = await this.byId(id);
      if (!current || !current.enabled) return false;
      const since = current.failing_since ?? now;
      const reason: DisabledReason | null = options.gone ? 'gone' : now.getTime() - since.getTime() >= options.disableAfterMs ? 'failing' : null;
      if (!reason) {
        if (!current.failing_since) {
          await this.model.updateOne({ _id: id }, { $set: { failing_since: now, due_at: new Date(now.getTime() + options.disableAfterMs) } });
        }
        return false;
      }
      await this.disableLocked(current, reason, since, now);
      return true;
    }).then(async (disabled) => {
      if (disabled) await this.outbox.flush(this.collection, id);
      return disabled;
    });
  }

  /**
   * The scheduled end of the disable period: disables the endpoint if it is still failing since the
   * same first failure (a success in between cleared the schedule). Answers true when it did.
   */
  async disableIfStillFailing(id: string, disableAfterMs: number, now: Date = new Date()): Promise<boolean> {
    return this.locks.withLock(this.lockName(id), async () => {
      const current = await this.byId(id);
      if (!current) return false;
      const since = current.failing_since;
      if (!current.enabled || !since) {
        await this.model.updateOne({ _id: id }, { $set: { due_at: null } });
        return false;
      }
      if (now.getTime() - since.getTime() < disableAfterMs) {
        await this.model.updateOne({ _id: id }, { $set: { due_at: new Date(since.getTime() + disableAfterMs) } });
        return false;
      }
      await this.disableLocked(current, 'failing', since, now);
      return true;
    }).then(async (disabled) => {
      if (disabled) await this.outbox.flush(this.collection, id);
      return disabled;
    });
  }

  /** Disables under the endpoint's lock, with its `webhook_endpoint.disabled` event in the same write. */
  private async disableLocked(current: WebhookEndpointDoc, reason: DisabledReason, since: Date, now: Date): Promise<void> {
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
    await this.collection.updateOne(
      { _id: current._id as never },
      withOutbox({ $set: { enabled: false, disabled_reason: reason, failing_since: since, due_at: null, updated_at: now } }, [event]),
    );
  }
}
