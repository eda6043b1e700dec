import { readFileSync } from 'node:fs';
import path from 'node:path';

export interface StackInfo {
  baseUrl: string;
  /** The stack's control channel (tools/stack/src/stack-control.ts): kill and restart services. */
  stackControlUrl: string;
  /** The store the stack uses (its databases are `${dbPrefix}<service>`). */
  mongoUrl: string;
  /** The broker the stack uses (the nothing-lost suite stops it when it is the local one). */
  amqpUrl: string;
  efiControlUrl: string;
  /** Control base URL of every provider emulator, by provider code. */
  controlUrls: Record<'efi' | 'mercadopago' | 'asaas' | 'pagarme' | 'woovi' | 'stripe' | 'utmify' | 'meta' | 'tiktok', string>;
  /** A merchant of its own for the every-provider suite. */
  providersMerchant: { testKey: string };
  /** A merchant of its own for the boleto-and-card suite (it connects its own Stripe accounts). */
  cardsMerchant: { testKey: string };
  /** The card fields suite's merchant and its demo site (tools/stack/src/demo-merchant.ts). */
  vaultMerchant: { testKey: string; restrictedTestKey: string; liveKey: string; demoUrl: string };
  testKey: string;
  restrictedTestKey: string;
  liveKey: string;
  /** The seeded merchant's saved Pix key (test mode), where its payouts may go. */
  payoutDestinationId: string;
  merchantId: string;
  /** The seeded merchant's owner: the dashboard's sign-in (owner@orquestra.test in the test stack too). */
  owner: { email: string; password: string };
  /** Sign-in attempts one e-mail may make per 15 minutes in this stack before 429. */
  signInMaxPerEmail: number;
  testProviderAccountId: string;
  liveProviderAccountId: string;
  emulatorClientId: string;
  /** A merchant of its own with two test Efí accounts (A priority 10, B priority 20). */
  failover: { testKey: string; accountA: string; accountB: string; clientA: string; clientB: string };
  dbPrefix: string;
  /** The subscriptions service's test clock file: `{"offset_ms": n}` moves its day forward. */
  subscriptionsClockFile: string;
  ports: Record<string, number>;
  /** Every service process: one per service, or several with ORQUESTRA_REPLICAS (tools/stack/src/replicas.ts). */
  replicas: Array<{ service: string; name: string; index: number; main: number; metrics: number }>;
  logDir: string;
}

/**
 * Where the running stack is described. `E2E_STATE_DIR` (with `TEST_STACK_PORT_OFFSET`) lets two
 * suites run side by side on one machine.
 */
export const STACK_INFO_FILE = path.resolve(
  process.env.E2E_STATE_DIR ?? path.resolve(__dirname, '../../../../.local/e2e'),
  'stack-info.json',
);

/** Spans the stack exported during the run, one JSON object per line (see trace-receiver.ts). */
export const SPANS_FILE = path.join(path.dirname(STACK_INFO_FILE), 'spans.jsonl');

/** What global-setup started, read by every suite. */
export function stackInfo(): StackInfo {
  return JSON.parse(readFileSync(STACK_INFO_FILE, 'utf8')) as StackInfo;
}
