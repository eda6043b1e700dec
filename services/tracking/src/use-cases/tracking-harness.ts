import { common, tracking } from '@orquestra/contracts';
import { connectDatabase, createRpcClient, ensureIndexes, EventBus, GrpcServer, newId, OutboxRelay, SecretBox, type EventEnvelope, type RpcClient } from '@orquestra/platform';
import { dropTestDatabase, ensureTestInfra, TEST_QUEUES_EXPIRE_MS, uniqueDbPrefix } from '@orquestra/platform/testing';
import { randomBytes } from 'node:crypto';
import type { Connection } from 'mongoose';
import pino, { type Logger } from 'pino';
import { trackingHandlers } from '../grpc/tracking.handlers';
import type { AdToolUrls } from '../tools/registry';
import { createAdTools } from '../tools/registry';
import { createTrackingModule, type TrackingModule } from './tracking.module';

/**
 * The tracking service as main.ts wires it, for the integration specs: its own database on the
 * real store, its own exchange on the real broker, real gRPC, and tools pointed at `urls`.
 */
export interface Harness {
  db: Connection;
  bus: EventBus;
  module: TrackingModule;
  client: RpcClient<typeof tracking.TrackingServiceService>;
  box: SecretBox;
  /** Events this stack published (integration.*). */
  published: EventEnvelope[];
  stop(): Promise<void>;
}

export async function startHarness(label: string, urls: AdToolUrls, options: { retryScheduleMs: number[]; toolTimeoutMs?: number; logger?: Logger }): Promise<Harness> {
  const infra = await ensureTestInfra();
  const prefix = uniqueDbPrefix(label);
  const logger = options.logger ?? pino({ level: 'silent' });
  const db = await connectDatabase({ url: infra.mongoUrl, dbName: `${prefix}tracking`, logger });
  const bus = new EventBus({ url: infra.amqpUrl, exchange: `${prefix}events`, logger, queueExpiresMs: TEST_QUEUES_EXPIRE_MS });
  await bus.start();
  const published: EventEnvelope[] = [];
  await bus.consume({ queue: `${prefix}probe`, patterns: ['integration.*'] }, async (event) => void published.push(event));
  const outbox = new OutboxRelay({ bus, logger, sweepIntervalMs: 200, sweepMinAgeMs: 200 });
  const box = SecretBox.fromConfig(`k1:${randomBytes(32).toString('base64')}`);
  const module = createTrackingModule({
    db,
    outbox,
    logger,
    box,
    tools: createAdTools(urls),
    toolTimeoutMs: options.toolTimeoutMs ?? 3_000,
    retryScheduleMs: options.retryScheduleMs,
    pollIntervalMs: 100,
  });
  await ensureIndexes(db);
  await module.start(bus);
  outbox.start();
  const server = new GrpcServer(logger);
  server.addService(tracking.TrackingServiceService, trackingHandlers(module.visits, module.integrations, module.deliveries));
  const port = await server.listen('127.0.0.1:0');
  const client = createRpcClient(tracking.TrackingServiceService, `127.0.0.1:${port}`, { deadlineMs: 15_000 });
  return {
    db,
    bus,
    module,
    client,
    box,
    published,
    async stop() {
      await module.worker.stop();
      outbox.stop();
      client.close();
      await server.shutdown(1_000);
      await bus.close();
      await dropTestDatabase(db);
    },
  };
}

export const caller = (merchant: string, extra: Partial<common.Caller> = {}): common.Caller =>
  common.Caller.fromPartial({ merchant_id: merchant, mode: common.Mode.MODE_TEST, key_id: 'key_full', request_id: 'req_1', ...extra });

export async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

export interface PaymentFields {
  id: string;
  mode?: 'test' | 'live';
  method?: 'pix' | 'card' | 'boleto';
  status?: string;
  amount?: number;
  amount_refunded?: number;
  fee?: number;
  net?: number;
  email?: string | null;
  phone?: string | null;
  tracking?: Record<string, string>;
  created_at?: string;
  updated_at?: string;
}

/** A public payment object as payments puts it in data.object (the fields tracking reads). */
export function paymentObject(fields: PaymentFields): Record<string, unknown> {
  const created = fields.created_at ?? new Date().toISOString();
  return {
    id: fields.id,
    object: 'payment',
    mode: fields.mode ?? 'test',
    method: fields.method ?? 'pix',
    status: fields.status ?? 'pending',
    amount: fields.amount ?? 12_990,
    amount_refunded: fields.amount_refunded ?? 0,
    currency: 'BRL',
    fee: fields.fee ?? 99,
    net: fields.net ?? 12_891,
    description: 'Curso de fotografia',
    customer: {
      name: 'Ana Lima',
      email: fields.email === undefined ? 'Ana.Lima@Example.com ' : fields.email,
      phone: fields.phone === undefined ? '(11) 98765-4321' : fields.phone,
      document: '123.456.789-09',
    },
    metadata: {},
    tracking: fields.tracking ?? { utm_source: 'facebook', utm_campaign: 'black-friday', fbclid: 'IwAR-abc' },
    subscription_id: null,
    created_at: created,
    updated_at: fields.updated_at ?? new Date().toISOString(),
  };
}

export function envelope(type: string, merchant: string, object: Record<string, unknown>, created = Math.floor(Date.now() / 1000)): EventEnvelope {
  return { id: newId('event'), type, created, merchant_id: merchant, mode: (object.mode as 'test' | 'live' | undefined) ?? 'test', source: null, data: { object } };
}

export const newPaymentId = () => newId('payment');
