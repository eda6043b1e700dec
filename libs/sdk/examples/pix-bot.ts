// A sales bot's Pix flow with the SDK: create a Pix payment, show the copy-and-paste code, poll
// every 5 to 10 seconds while it is open (spec §1 rule 2), and stop on succeeded (deliver the
// goods), failed or canceled (canceled includes expired).
//
// Run it against a local stack (`npm start` writes stack.env):
//   set -a; source stack.env; set +a
//   npx esbuild libs/sdk/examples/pix-bot.ts --bundle --platform=node --outfile=.local/pix-bot.js && node .local/pix-bot.js
//
// In your own project, import from '@orquestra/node' instead of '../src' (tools/sdk/pack-check.sh
// does exactly that: it compiles this file against the packed package, as CommonJS and as an ES
// module, and runs it).
import { randomUUID } from 'node:crypto';
import { Orquestra, type Payment, type PaymentStatus } from '../src';

/** Where a bot stops polling. Refunded states only follow succeeded, so they end the loop too. */
const STOP_ON: ReadonlySet<PaymentStatus> = new Set(['succeeded', 'failed', 'canceled', 'refunded', 'partially_refunded']);

export interface PixBotOptions {
  client: Orquestra;
  amount: number;
  customerName: string;
  /** The bot's own order id: it becomes metadata and the Idempotency-Key, so a crash-and-retry never charges twice. */
  orderId?: string;
  /** Polling interval range; default 5 000–10 000 ms as the spec advises. Tests use a shorter one. */
  pollIntervalMs?: { min: number; max: number };
  /** Give up after this long (the Pix expiry also ends the loop, as canceled). */
  maxWaitMs?: number;
  /** Called once the payment exists (show the QR to the buyer here). */
  onCreated?: (payment: Payment) => void | Promise<void>;
  log?: (line: string) => void;
}

export interface PixBotResult {
  payment: Payment;
  polls: number;
  /** True only for succeeded: the one status that allows delivering the goods. */
  deliver: boolean;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export async function runPixBot(options: PixBotOptions): Promise<PixBotResult> {
  const { client, log = () => undefined } = options;
  const interval = options.pollIntervalMs ?? { min: 5_000, max: 10_000 };
  const orderId = options.orderId ?? randomUUID();
  const created = await client.payments.create(
    {
      method: 'pix',
      amount: options.amount,
      description: `Pedido ${orderId}`,
      customer: { name: options.customerName },
      metadata: { order_id: orderId },
    },
    { idempotencyKey: `pix-bot-${orderId}` },
  );
  log(`Pagamento ${created.id} criado: pague com o Pix copia e cola ${created.next_action?.qr_code ?? '(sem código)'}`);
  await options.onCreated?.(created);

  const deadline = Date.now() + (options.maxWaitMs ?? 24 * 60 * 60 * 1000);
  let payment: Payment = created;
  let polls = 0;
  while (!STOP_ON.has(payment.status)) {
    if (Date.now() > deadline) throw new Error(`payment ${payment.id} still ${payment.status} after ${options.maxWaitMs} ms`);
    await sleep(interval.min + Math.random() * (interval.max - interval.min));
    payment = await client.payments.retrieve(payment.id);
    polls += 1;
    log(`Pagamento ${payment.id}: ${payment.status}`);
  }
  const deliver = payment.status === 'succeeded';
  log(deliver ? `Pago: entregue o pedido ${orderId}.` : `Encerrado sem pagamento (${payment.status}${payment.failure_code ? `, ${payment.failure_code}` : ''}).`);
  return { payment, polls, deliver };
}

export async function main(): Promise<void> {
  const apiKey = process.env.ORQUESTRA_TEST_KEY;
  const baseUrl = process.env.ORQUESTRA_BASE_URL;
  if (!apiKey || !baseUrl) throw new Error('Defina ORQUESTRA_BASE_URL e ORQUESTRA_TEST_KEY (veja stack.env).');
  // PIX_BOT_POLL_MS shortens the polling for tests; leave it unset against a real account.
  const pollMs = process.env.PIX_BOT_POLL_MS ? Number(process.env.PIX_BOT_POLL_MS) : undefined;
  const result = await runPixBot({
    client: new Orquestra({ apiKey, baseUrl }),
    amount: Number(process.env.PIX_BOT_AMOUNT ?? 1990),
    ...(pollMs ? { pollIntervalMs: { min: pollMs, max: pollMs * 2 }, maxWaitMs: 60_000 } : {}),
    customerName: 'Cliente do bot',
    log: (line) => console.log(line),
  });
  process.exitCode = result.deliver ? 0 : 1;
}

// Runs when executed directly (node pix-bot.js, as CommonJS or as an ES module), not when imported.
if (/pix-bot\.[cm]?[jt]s$/.test(process.argv[1] ?? '')) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 2;
  });
}
