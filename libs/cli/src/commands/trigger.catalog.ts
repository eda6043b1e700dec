import type { Orquestra, Payment } from '@orquestra/node';

/** One thing `orq trigger` can make happen, and how, with test-mode objects and simulate. */
export interface Trigger {
  /** What is created and which simulate drives it (shown in --help). */
  summary: string;
  /** Creates and drives the objects; returns what was created, by kind, in order. */
  run(client: Orquestra, tag: string): Promise<Array<[kind: string, id: string]>>;
}

/** A CPF whose check digits hold (subscriptions need the payer's document). */
const TEST_CPF = '52998224725';

function newPix(client: Orquestra, tag: string, amount = 1990): Promise<Payment> {
  return client.payments.create({
    method: 'pix',
    amount,
    description: `orq trigger ${tag}`,
    customer: { name: 'Cliente orq trigger' },
    metadata: { orq_trigger: tag },
  });
}

async function paidPix(client: Orquestra, tag: string): Promise<Payment> {
  const payment = await newPix(client, tag);
  await client.payments.simulate(payment.id);
  return payment;
}

async function refunded(client: Orquestra, tag: string, partial: boolean): Promise<Array<[string, string]>> {
  const payment = await paidPix(client, tag);
  const result = await client.payments.refund(payment.id, partial ? { amount: 990, reason: 'orq trigger' } : { reason: 'orq trigger' });
  return [
    ['payment', payment.id],
    ['refund', result.refund.id],
  ];
}

function newSubscription(client: Orquestra, tag: string) {
  return client.subscriptions.create({
    customer: { name: 'Cliente orq trigger', document: TEST_CPF },
    frequency: 'monthly',
    amount: 2990,
    description: 'orq trigger',
    metadata: { orq_trigger: tag },
  });
}

/**
 * The events `orq trigger` makes happen. payment.failed is not here: a failure comes from a
 * provider's decline, which simulate does not produce.
 */
export const TRIGGERS: Readonly<Record<string, Trigger>> = {
  'payment.created': {
    summary: 'cria um Pix pendente',
    run: async (client, tag) => [['payment', (await newPix(client, tag)).id]],
  },
  'payment.succeeded': {
    summary: 'cria um Pix e o paga com simulate',
    run: async (client, tag) => [['payment', (await paidPix(client, tag)).id]],
  },
  'payment.canceled': {
    summary: 'cria um Pix e o cancela',
    run: async (client, tag) => {
      const payment = await newPix(client, tag);
      await client.payments.cancel(payment.id);
      return [['payment', payment.id]];
    },
  },
  'refund.succeeded': {
    summary: 'cria um Pix, paga com simulate e o reembolsa por inteiro (também refund.created e payment.refunded)',
    run: (client, tag) => refunded(client, tag, false),
  },
  'payment.refunded': {
    summary: 'o mesmo que refund.succeeded',
    run: (client, tag) => refunded(client, tag, false),
  },
  'payment.partially_refunded': {
    summary: 'cria um Pix de R$ 19,90, paga e reembolsa R$ 9,90',
    run: (client, tag) => refunded(client, tag, true),
  },
  'dispute.created': {
    summary: 'cria um Pix, paga com simulate e abre uma disputa com simulate-dispute',
    run: async (client, tag) => {
      const payment = await paidPix(client, tag);
      const dispute = await client.payments.simulateDispute(payment.id, { reason: 'orq trigger' });
      return [
        ['payment', payment.id],
        ['dispute', dispute.id],
      ];
    },
  },
  'subscription.created': {
    summary: 'cria uma assinatura Pix Automático pendente',
    run: async (client, tag) => [['subscription', (await newSubscription(client, tag)).id]],
  },
  'subscription.activated': {
    summary: 'cria uma assinatura e a aprova com simulate',
    run: async (client, tag) => {
      const subscription = await newSubscription(client, tag);
      await client.subscriptions.simulate(subscription.id);
      return [['subscription', subscription.id]];
    },
  },
  'subscription.canceled': {
    summary: 'cria uma assinatura e a cancela',
    run: async (client, tag) => {
      const subscription = await newSubscription(client, tag);
      await client.subscriptions.cancel(subscription.id);
      return [['subscription', subscription.id]];
    },
  },
};
