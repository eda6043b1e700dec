import { mapTransferStatus, toProviderTransfer, transferOfEvent } from './asaas.transfers';
import { parseAsaasWebhookBody } from './asaas.webhook';

const body = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('Asaas transfers', () => {
  it('maps every documented status', () => {
    expect((['PENDING', 'BANK_PROCESSING', 'DONE', 'FAILED', 'CANCELLED'] as const).map(mapTransferStatus)).toEqual(['pending', 'processing', 'paid', 'failed', 'canceled']);
  });

  it('reads a done transfer in cents, with its fee, end-to-end id and São Paulo effective date', () => {
    const transfer = toProviderTransfer(
      { id: 'tr_1', status: 'DONE', value: '125.90', transferFee: '2.00', effectiveDate: '2026-03-10 15:00:00', endToEndIdentifier: 'E1954055020260310180012345678901', externalReference: 'po_1' },
      'po_other',
    );
    expect(transfer).toEqual({
      providerTransferId: 'tr_1',
      payoutId: 'po_1',
      status: 'paid',
      providerStatus: 'DONE',
      amount: 12_590,
      fee: 200,
      paidAt: new Date('2026-03-10T18:00:00Z'),
      endToEndId: 'E1954055020260310180012345678901',
    });
  });

  it('reads a failed transfer with Asaas reason in Portuguese', () => {
    expect(toProviderTransfer({ id: 'tr_2', status: 'FAILED', value: '10.00', failReason: 'Conta destino encerrada' }, 'po_2')).toMatchObject({
      payoutId: 'po_2',
      status: 'failed',
      failureCode: 'transfer_failed',
      failureReason: 'Asaas: Conta destino encerrada',
    });
  });

  it('names the transfer of a TRANSFER_* event, and calls one without it malformed', () => {
    expect(transferOfEvent({ transfer: { id: 'tr_3', externalReference: 'po_3' } })).toEqual({ providerTransferId: 'tr_3', payoutId: 'po_3' });
    expect(transferOfEvent({ transfer: { id: 'tr_4', externalReference: null } })).toEqual({ providerTransferId: 'tr_4' });
    expect(parseAsaasWebhookBody(body({ id: 'evt_1', event: 'TRANSFER_DONE', transfer: { id: 'tr_3', externalReference: 'po_3' } }))).toEqual({
      kind: 'event',
      eventId: 'evt_1',
      event: 'TRANSFER_DONE',
      paymentIds: [],
      transfer: { providerTransferId: 'tr_3', payoutId: 'po_3' },
    });
    expect(parseAsaasWebhookBody(body({ id: 'evt_2', event: 'TRANSFER_FAILED', transfer: {} }))).toEqual({ kind: 'malformed' });
  });
});
