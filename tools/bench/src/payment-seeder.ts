/**
 * Grows the bench merchant's payments to a given count, fast, for the list-latency runs: straight
 * into the payments service's database with the driver, as copies of payments the stack itself
 * created (so every copy has exactly the shape the payments model stores, whatever it is today).
 * The templates are the load's Pix payments, some of them paid (simulated) and some canceled
 * through the API first, so that lists filtered by status find a realistic mix.
 *
 * A copy gets its own id (a ULID of its creation time, as the service mints them), creation
 * times spread over the 30 days before the oldest payment, and provider references of its own (a
 * provider webhook must never find a copy instead of the real payment). It carries no outbox and
 * no due work: seeding must not make the services publish or expire anything.
 */
import { MongoClient, type Collection, type Document } from 'mongodb';
import { ulid } from 'ulid';
import { log } from './phases';

/** Share of each status among the copies (statuses without a template fall back to pending). */
const STATUS_MIX: Array<[status: string, share: number]> = [
  ['succeeded', 0.6],
  ['pending', 0.25],
  ['canceled', 0.15],
];
const SPREAD_MS = 30 * 24 * 3_600_000;
const BATCH = 1_000;

/** A payment as stored: its shape is the payments model's, taken as it comes; only the id is known. */
type SeedPayment = Document & { _id: string };

interface Api {
  baseUrl: string;
  testKey: string;
}

async function call(api: Api, method: 'GET' | 'POST', path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(`${api.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${api.testKey}` },
    signal: AbortSignal.timeout(30_000),
  });
  return { status: response.status, body: await response.json().catch(() => undefined) };
}

export class PaymentSeeder {
  private client: MongoClient | undefined;
  private templates = new Map<string, SeedPayment[]>();
  private scope: { merchant_id: string; mode: string } | undefined;
  /** Creation time of the next copy: copies go back in time from the oldest payment. */
  private nextAt = 0;
  private copies = 0;

  constructor(
    private readonly options: { mongoUrl: string; dbName: string; api: Api; runId: string },
  ) {}

  private async collection(): Promise<Collection<SeedPayment>> {
    this.client ??= await MongoClient.connect(this.options.mongoUrl, { serverSelectionTimeoutMS: 10_000 });
    return this.client.db(this.options.dbName).collection('payments');
  }

  /** Pays (simulated) and cancels a few of the load's pending payments, then reads the templates. */
  private async prepare(): Promise<void> {
    const { api } = this.options;
    const listed = await call(api, 'GET', '/v1/payments?limit=40&status=pending&method=pix');
    const pending = ((listed.body as { data?: Array<{ id: string }> } | undefined)?.data ?? []).map((p) => p.id);
    if (pending.length === 0) throw new Error(`no pending Pix payment to copy (GET /v1/payments answered ${listed.status})`);
    const toPay = pending.slice(0, 15);
    const toCancel = pending.slice(15, 25);
    const outcomes = await Promise.all([
      ...toPay.map((id) => call(api, 'POST', `/v1/payments/${id}/simulate`)),
      ...toCancel.map((id) => call(api, 'POST', `/v1/payments/${id}/cancel`)),
    ]);
    const refused = outcomes.filter((o) => o.status !== 200);
    if (refused.length > 0) log(`list seed: ${refused.length} of ${outcomes.length} simulate/cancel calls refused (first: ${refused[0]?.status} ${JSON.stringify(refused[0]?.body)})`);

    const payments = await this.collection();
    const wanted = [...toPay, ...toCancel];
    // A simulated payment is settled by the provider's webhook: wait for it (or take what there is).
    const deadline = Date.now() + 30_000;
    let changed: SeedPayment[] = [];
    do {
      changed = await payments.find({ _id: { $in: wanted }, status: { $ne: 'pending' } }).toArray();
      if (changed.length === wanted.length) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    } while (Date.now() < deadline);
    const stillPending = await payments.find({ _id: { $in: pending.slice(25) } }).toArray();
    for (const doc of [...changed, ...stillPending]) {
      const status = String(doc['status']);
      this.templates.set(status, [...(this.templates.get(status) ?? []), doc]);
    }
    const sample = stillPending[0] ?? changed[0];
    if (!sample) throw new Error('the list seed found none of its template payments in the database');
    this.scope = { merchant_id: String(sample['merchant_id']), mode: String(sample['mode']) };
    const oldest = await payments.find(this.scope).sort({ _id: 1 }).limit(1).next();
    this.nextAt = ((oldest?.['created_at'] as Date | undefined) ?? new Date()).getTime() - 1_000;
    log(`list seed: templates by status ${[...this.templates].map(([status, docs]) => `${status} ${docs.length}`).join(', ')}`);
  }

  /** The merchant's payments now. */
  async count(): Promise<number> {
    if (!this.scope) await this.prepare();
    return (await this.collection()).countDocuments(this.scope ?? {});
  }

  private template(n: number): SeedPayment {
    // Deterministic mix: the copy's position in a 100-slot cycle picks its status.
    let slot = (n % 100) / 100;
    let status = 'pending';
    for (const [candidate, share] of STATUS_MIX) {
      if (slot < share) {
        status = candidate;
        break;
      }
      slot -= share;
    }
    const docs = this.templates.get(status) ?? this.templates.get('pending') ?? [...this.templates.values()][0] ?? [];
    const doc = docs[n % docs.length];
    if (!doc) throw new Error('no template payment');
    return doc;
  }

  private copy(template: SeedPayment, at: number, n: number): SeedPayment {
    const created = (template['created_at'] as Date).getTime();
    const copy: SeedPayment = { _id: '' };
    for (const [key, value] of Object.entries(template)) copy[key] = value instanceof Date ? new Date(value.getTime() - created + at) : value;
    const own = (key: string) => {
      const value = template[key];
      if (typeof value === 'string' && value !== '') copy[key] = `${value}s${n}`;
    };
    own('provider_payment_id');
    own('end_to_end_id');
    own('idempotency_key');
    // The service's ids (newId): `pay_` + a lower-case ULID of the creation time. Not newId itself:
    // it is monotonic, so every earlier time would get the first copy's time.
    copy['_id'] = `pay_${ulid(at).toLowerCase()}`;
    copy['metadata'] = { ...(template['metadata'] as Record<string, string> | undefined), bench_copy: this.options.runId };
    copy['outbox'] = [];
    copy['outbox_since'] = null;
    copy['outbox_lease'] = null;
    copy['due_at'] = null;
    return copy;
  }

  /** Inserts copies until the merchant has `target` payments; answers how many and how long it took. */
  async growTo(target: number): Promise<{ inserted: number; seconds: number; total: number }> {
    const started = performance.now();
    const payments = await this.collection();
    const missing = Math.max(0, target - (await this.count()));
    const spacing = Math.max(1, Math.floor(SPREAD_MS / Math.max(target, 1)));
    for (let done = 0; done < missing; ) {
      const batch: SeedPayment[] = [];
      for (; batch.length < BATCH && done < missing; done++) {
        const n = this.copies++;
        batch.push(this.copy(this.template(n), this.nextAt, n));
        this.nextAt -= spacing;
      }
      await payments.insertMany(batch, { ordered: false });
    }
    const seconds = (performance.now() - started) / 1000;
    return { inserted: missing, seconds, total: await this.count() };
  }

  async close(): Promise<void> {
    await this.client?.close();
    this.client = undefined;
  }
}
