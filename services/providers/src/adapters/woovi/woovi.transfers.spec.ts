import { mapPaymentStatus, parseWooviTransferBody, toProviderTransfer } from './woovi.transfers';

const body = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('Woovi Pix payments out', () => {
  it('maps the documented statuses, an unknown one as still processing', () => {
    expect(['CREATED', 'APPROVED', 'CONFIRMED', 'FAILED', 'DENIED', 'REMOVED', 'SOMETHING_NEW'].map(mapPaymentStatus)).toEqual([
      'pending',
      'processing',
      'paid',
      'failed',
      'failed',
      'canceled',
      'processing',
    ]);
  });

  it('reads a confirmed payment as Woovi documents it (cents, end-to-end id, time)', () => {
    expect(
      toProviderTransfer({
        payment: { value: 30, status: 'CONFIRMED', correlationID: 'po_1' },
        transaction: { value: 30, endToEndId: 'E23114447202303161242u80lZNR7nQZ', time: '2023-03-16T12:42:47.526Z' },
      }),
    ).toEqual({
      providerTransferId: 'po_1',
      payoutId: 'po_1',
      status: 'paid',
      providerStatus: 'CONFIRMED',
      amount: 30,
      paidAt: new Date('2023-03-16T12:42:47.526Z'),
      endToEndId: 'E23114447202303161242u80lZNR7nQZ',
    });
  });

  it('reads a failed payment with Woovi error code and text', () => {
    expect(toProviderTransfer({ payment: { value: 30, status: 'FAILED', correlationID: 'po_2' }, error: { code: 'PAY_PIX_KEY_ERROR', description: 'Falha ao Pagar Chave Pix' } })).toMatchObject({
      status: 'failed',
      failureCode: 'pay_pix_key_error',
      failureReason: 'Woovi: Falha ao Pagar Chave Pix',
    });
    expect(toProviderTransfer({ payment: { status: 'FAILED' } })).toBeUndefined();
  });

  it('names the payment of a MOVEMENT event; other events name none; a movement without correlationID is malformed', () => {
    const confirmed = parseWooviTransferBody(body({ event: 'OPENPIX:MOVEMENT_CONFIRMED', payment: { value: 30, status: 'CONFIRMED', correlationID: 'po_3' } }));
    expect(confirmed).toEqual({ kind: 'transfers', eventKey: expect.stringMatching(/^woovi:OPENPIX:MOVEMENT_CONFIRMED:[0-9a-f]{32}$/), transfers: [{ providerTransferId: 'po_3', payoutId: 'po_3' }] });
    // Redelivered with other formatting: the same key.
    expect(parseWooviTransferBody(Buffer.from(JSON.stringify({ payment: { correlationID: 'po_3', status: 'CONFIRMED', value: 30 }, event: 'OPENPIX:MOVEMENT_CONFIRMED' }, null, 2)))).toEqual(confirmed);
    expect(parseWooviTransferBody(body({ event: 'OPENPIX:CHARGE_COMPLETED', charge: { correlationID: 'c1' } }))).toMatchObject({ kind: 'transfers', transfers: [] });
    expect(parseWooviTransferBody(body({ event: 'OPENPIX:MOVEMENT_FAILED', payment: {} }))).toEqual({ kind: 'malformed' });
    expect(parseWooviTransferBody(Buffer.from('[1]'))).toEqual({ kind: 'malformed' });
  });
});
