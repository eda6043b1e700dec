import { randomBytes, randomUUID } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { api, createPix, emulator, eventually } from './support/api';
import { stackInfo } from './support/stack-info';

/**
 * Pix expiry (issue 4 point 5): a pending Pix whose expires_at passes is canceled by the due-work
 * worker — the charge is removed at the provider (its QR stops working), payment.canceled is
 * published, and a polling bot sees canceled with failure_code expired.
 *
 * expires_in_minutes is at least 1, so instead of waiting a minute the test moves the payment's
 * clock: it sets expires_at and due_at (what the worker reads) to the past in the payments
 * service's own database, exactly what a minute of waiting would leave there.
 */
// Expiry is due work polled in the background: on a loaded machine a pass can lag behind.
jest.setTimeout(120_000);

describe('Pix expiry', () => {
  let mongo: MongoClient;
  const payments = () => mongo.db(`${stackInfo().dbPrefix}payments`).collection('payments');

  beforeAll(async () => {
    mongo = await MongoClient.connect(stackInfo().mongoUrl);
  });
  afterAll(async () => {
    await mongo.close();
  });

  /**
   * Moves the payment's dates with one conditional update, as every writer of a payment does: the
   * store applies it atomically, so a concurrent outbox flush or webhook cannot write old dates back.
   */
  async function setDates(id: string, dates: Record<string, Date>): Promise<number> {
    const moved = await payments().updateOne({ _id: id as never, status: 'pending' }, { $set: dates });
    return moved.modifiedCount;
  }

  async function expireNow(id: string): Promise<void> {
    const past = new Date(Date.now() - 1_000);
    expect(await setDates(id, { expires_at: past, due_at: past })).toBe(1);
  }

  it('cancels a pending Pix when it expires: charge removed at Efí, payment.canceled, polling sees canceled', async () => {
    const payment = await createPix({ expires_in_minutes: 1 });
    expect(payment.status).toBe('pending');
    // expires_at is creation + 1 minute, and the expiry is scheduled for then.
    const expiresIn = new Date(payment.expires_at).getTime() - new Date(payment.created_at).getTime();
    expect(expiresIn).toBeGreaterThanOrEqual(59_000);
    expect(expiresIn).toBeLessThanOrEqual(61_000);
    const stored = await payments().findOne({ _id: payment.id as never });
    expect(stored?.due_at?.getTime()).toBe(new Date(payment.expires_at).getTime());

    await expireNow(payment.id);
    // A polling bot (every few seconds) sees it canceled and stops.
    const canceled = await eventually(async () => {
      const read = await api('GET', `/v1/payments/${payment.id}`);
      return read.body.status === 'canceled' ? read.body : undefined;
    }, 'the expired Pix to be canceled', 60_000);
    expect(canceled).toMatchObject({ status: 'canceled', failure_code: 'expired', next_action: null });
    expect(canceled.failure_reason).toMatch(/prazo/i);
    expect(canceled.events.map((e: { type: string }) => e.type)).toEqual(['payment.created', 'payment.canceled']);

    // At the provider: the cob is removed, and paying its QR is refused.
    const charges = await emulator('GET', `/__control/charges?client_id=${encodeURIComponent(stackInfo().emulatorClientId)}`);
    const cob = (charges.charges as Array<{ txid: string; status: string }>).find((c) => c.txid === payment.provider_payment_id);
    expect(cob?.status).toBe('REMOVIDA_PELO_USUARIO_RECEBEDOR');
    const pay = await fetch(`${stackInfo().efiControlUrl}/__control/charges/${payment.provider_payment_id}/pay`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(pay.status).toBe(409);

    // The event is in the log, with the payment as it is now.
    const events = await eventually(async () => {
      const answer = await api('GET', `/v1/events?payment_id=${payment.id}&type=payment.canceled`);
      return answer.body.data?.length === 1 ? answer.body.data : undefined;
    }, 'payment.canceled in the event log');
    expect(events[0].data.object).toMatchObject({ id: payment.id, status: 'canceled', failure_code: 'expired' });
    // Nothing more happens to it: the expiry is not scheduled again.
    expect((await payments().findOne({ _id: payment.id as never }))?.due_at).toBeNull();
  });

  it('cancels a Pix whose charge the provider no longer knows, at sync and at expiry, instead of retrying forever', async () => {
    const forget = async (txid: string) => {
      const answer = await fetch(`${stackInfo().efiControlUrl}/__control/charges/${txid}`, { method: 'DELETE' });
      expect(answer.status).toBe(204);
    };
    const synced = await createPix({ expires_in_minutes: 30 });
    await forget(synced.provider_payment_id);
    const afterSync = await api('POST', `/v1/payments/${synced.id}/sync`);
    expect(afterSync.status).toBe(200);
    expect(afterSync.body.status).toBe('canceled');

    const expiring = await createPix({ expires_in_minutes: 1 });
    await forget(expiring.provider_payment_id);
    await expireNow(expiring.id);
    const canceled = await eventually(async () => {
      const read = await api('GET', `/v1/payments/${expiring.id}`);
      return read.body.status === 'canceled' ? read.body : undefined;
    }, 'the Pix with a forgotten charge to be canceled at expiry', 60_000);
    expect(canceled).toMatchObject({ status: 'canceled', failure_code: 'expired' });
    expect((await payments().findOne({ _id: expiring.id as never }))?.due_at).toBeNull();
  });

  it('never cancels a Pix that was paid: a payment that succeeded before its expiry stays succeeded', async () => {
    const payment = await createPix({ expires_in_minutes: 1 });
    expect((await api('POST', `/v1/payments/${payment.id}/simulate`)).body.status).toBe('succeeded');
    // Even if an expiry were still due (a stale schedule), the worker only takes pending payments.
    const past = new Date(Date.now() - 1_000);
    await payments().updateOne({ _id: payment.id as never }, { $set: { due_at: past } }); // succeeded: no writer races it
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const read = await api('GET', `/v1/payments/${payment.id}`);
    expect(read.body.status).toBe('succeeded');
    expect(read.body.events.map((e: { type: string }) => e.type)).not.toContain('payment.canceled');
  });

  it('cancels an unpaid boleto only days after its due date, at the provider too', async () => {
    // A Stripe account of the default merchant, used only by this test (forced by provider_account_id).
    const secret = `sk_test_${randomBytes(12).toString('hex')}`;
    const registered = await fetch(`${stackInfo().controlUrls.stripe}/__control/accounts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret_key: secret }),
    });
    expect(registered.status).toBeLessThan(300);
    const account = await api('POST', '/v1/provider-accounts', { body: { provider: 'stripe', name: 'Stripe (expiry test)', credentials: { secret_key: secret }, priority: 990 } });
    expect(account.status).toBe(201);
    try {
      const created = await api('POST', '/v1/payments', {
        idempotencyKey: randomUUID(),
        body: {
          method: 'boleto',
          amount: 5000,
          provider_account_id: account.body.id,
          customer: {
            name: 'Maria Silva',
            email: 'maria@example.com',
            document: '529.982.247-25',
            address: { street: 'Avenida Paulista', number: '1578', neighborhood: 'Bela Vista', city: 'São Paulo', state: 'SP', zip: '01310-200' },
          },
        },
      });
      expect(created.status).toBe(201);
      const boleto = created.body;
      expect(boleto).toMatchObject({ method: 'boleto', status: 'pending' });
      // Scheduled a week after the end of the due day (late compensation), not at it.
      const stored = await payments().findOne({ _id: boleto.id as never });
      expect(stored?.due_at?.getTime()).toBe(new Date(boleto.expires_at).getTime() + 7 * 86_400_000);

      expect(await setDates(boleto.id, { due_at: new Date(Date.now() - 1_000) })).toBe(1);
      const canceled = await eventually(async () => {
        const read = await api('GET', `/v1/payments/${boleto.id}`);
        return read.body.status === 'canceled' ? read.body : undefined;
      }, 'the unpaid boleto to be canceled', 60_000);
      expect(canceled).toMatchObject({ failure_code: 'expired', next_action: null });
      expect(canceled.failure_reason).toMatch(/boleto venceu/);
      // At Stripe the PaymentIntent is canceled: the voucher cannot be paid any more.
      // Read through Stripe's own API (the emulator's API port is its control port − 1).
      const control = new URL(stackInfo().controlUrls.stripe);
      const apiBase = `${control.protocol}//${control.hostname}:${Number(control.port) - 1}`;
      const intent = await fetch(`${apiBase}/v1/payment_intents/${boleto.provider_payment_id}`, { headers: { authorization: `Bearer ${secret}` } });
      expect(intent.status).toBe(200);
      expect(((await intent.json()) as { status: string }).status).toBe('canceled');
      const sync = await api('POST', `/v1/payments/${boleto.id}/sync`);
      expect(sync.body.status).toBe('canceled');
    } finally {
      await api('POST', `/v1/provider-accounts/${account.body.id}/disable`);
    }
  });
});

