import { buildEnvioRequest, idEnvioFor, parseEfiEnvioWebhookBody, payoutIdOf, toProviderTransfer } from './efi.payouts';

const PAYOUT = 'po_01jf3k8v9x2m4n6p8q0r2s4t6v';

describe('Efí payouts: wire conversions', () => {
  it('makes the idEnvio of our payout id inside Efí’s pattern, and reads it back', () => {
    const idEnvio = idEnvioFor(PAYOUT);
    expect(idEnvio).toBe('po01jf3k8v9x2m4n6p8q0r2s4t6v');
    expect(idEnvio).toMatch(/^[a-zA-Z0-9]{1,35}$/);
    expect(payoutIdOf(idEnvio)).toBe(PAYOUT);
    expect(payoutIdOf('envioFeitoNoApp123')).toBeUndefined();
  });

  it.each([
    ['EM_PROCESSAMENTO', 'processing'],
    ['REALIZADO', 'paid'],
    ['NAO_REALIZADO', 'failed'],
  ] as const)('%s is %s', (providerStatus, status) => {
    const transfer = toProviderTransfer({ idEnvio: 'x', e2eId: 'E1', valor: '12.34', status: providerStatus, horario: { solicitacao: '2026-11-24T10:00:00Z' } }, 'x', PAYOUT);
    expect(transfer).toMatchObject({ providerTransferId: 'x', payoutId: PAYOUT, status, providerStatus, amount: 1_234, endToEndId: 'E1' });
    expect(transfer.paidAt !== undefined).toBe(status === 'paid');
    expect(transfer.failureReason !== undefined).toBe(status === 'failed');
  });

  it('pays from the account key to the destination key, with the description as infoPagador', () => {
    expect(buildEnvioRequest({ payoutId: PAYOUT, amount: 5_000, destination: { type: 'pix_key', keyType: 'email', key: 'a@b.com' }, description: ' Repasse ' }, 'chave-da-conta')).toEqual({
      valor: '50.00',
      pagador: { chave: 'chave-da-conta', infoPagador: 'Repasse' },
      favorecido: { chave: 'a@b.com' },
    });
    expect(() => buildEnvioRequest({ payoutId: PAYOUT, amount: 5_000, destination: { type: 'account' } }, 'c')).toThrow(RangeError);
  });

  it('reads the sends a notification names, with a key that changes with their status', () => {
    const body = (status: string) => Buffer.from(JSON.stringify({ pix: [{ endToEndId: 'E1', valor: '1.00', status, tipo: 'SOLICITACAO', gnExtras: { idEnvio: idEnvioFor(PAYOUT) } }] }));
    const processing = parseEfiEnvioWebhookBody(body('EM_PROCESSAMENTO'));
    const paid = parseEfiEnvioWebhookBody(body('REALIZADO'));
    expect(paid).toMatchObject({ kind: 'sends', sends: [{ idEnvio: 'po01jf3k8v9x2m4n6p8q0r2s4t6v', payoutId: PAYOUT }] });
    expect(processing.kind === 'sends' && paid.kind === 'sends' && processing.eventKey !== paid.eventKey).toBe(true);
    expect(parseEfiEnvioWebhookBody(Buffer.from(JSON.stringify({ pix: [{ endToEndId: 'E2', txid: 't1', valor: '1.00' }] })))).toEqual({ kind: 'sends', eventKey: '', sends: [] });
    expect(parseEfiEnvioWebhookBody(Buffer.from('nope'))).toEqual({ kind: 'malformed' });
  });
});
