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
describe('Pix expiry', () => {
  let mongo: MongoClient;
  const payments = () => mongo.db(`${stackInfo().dbPrefix}payments`).collection('payments');

  beforeAll(async () => {
    mongo = await MongoClient.connect(stackInfo().mongoUrl);
  });
  afterAll(async () => {
    await mongo.close();
  });

  async function expireNow(id: string): Promise<void> {
    const past = new Date(Date.now() - 1_000);
    const moved = await payments().updateOne({ _id: id as never, status: 'pending' }, { $set: { expires_at: past, due_at: past } });
    expect(moved.modifiedCount).toBe(1);
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
    }, 'the expired Pix to be canceled', 20_000);
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

  it('never cancels a Pix that was paid: a payment that succeeded before its expiry stays succeeded', async () => {
    const payment = await createPix({ expires_in_minutes: 1 });
    expect((await api('POST', `/v1/payments/${payment.id}/simulate`)).body.status).toBe('succeeded');
    // Even if an expiry were still due (a stale schedule), the worker only takes pending payments.
    const past = new Date(Date.now() - 1_000);
    await payments().updateOne({ _id: payment.id as never }, { $set: { due_at: past } });
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const read = await api('GET', `/v1/payments/${payment.id}`);
    expect(read.body.status).toBe('succeeded');
    expect(read.body.events.map((e: { type: string }) => e.type)).not.toContain('payment.canceled');
  });
});
