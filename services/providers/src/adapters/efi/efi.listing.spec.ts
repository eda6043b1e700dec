import type { EfiCob } from './efi.transformers';
import { cobrancaListCharges, cobrancaListData, cobrancaListPath, type EfiListedCobranca } from './efi.cobrancas';
import { cobToListedCharge, decodeEfiListCursor, EFI_BOLETO_PAGING_NOTE, EFI_BOLETO_PHASE_CURSOR, efiBoletoListPage, efiCobListPage, efiCobListPath } from './efi.listing';

const period = { from: new Date('2026-03-01T12:00:00.000Z'), to: new Date('2026-03-02T12:00:00.000Z') };

const cob = (overrides: Partial<EfiCob> = {}): EfiCob => ({
  calendario: { criacao: '2026-03-01T13:00:00.000Z', expiracao: 3600 },
  txid: 'a'.repeat(32),
  revisao: 0,
  status: 'ATIVA',
  valor: { original: '1990.07' },
  chave: 'chave',
  ...overrides,
});

describe('Efí charge listing', () => {
  it('asks for the period with an inclusive fim one millisecond before `to`, and the page', () => {
    const url = new URL(`https://x${efiCobListPath(period, 3, 50)}`);
    expect(url.pathname).toBe('/v2/cob');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      inicio: '2026-03-01T12:00:00.000Z',
      fim: '2026-03-02T11:59:59.999Z',
      'paginacao.paginaAtual': '3',
      'paginacao.itensPorPagina': '50',
    });
  });

  it('maps a paid cob with settled and failed devoluções: refunded counts settled ones only, no fee', () => {
    const listed = cobToListedCharge(
      cob({
        status: 'CONCLUIDA',
        pix: [
          {
            endToEndId: 'E1',
            valor: '1990.07',
            horario: '2026-03-01T13:01:00.000Z',
            devolucoes: [
              { id: 'r1', valor: '10.00', status: 'DEVOLVIDO' },
              { id: 'r2', valor: '5.00', status: 'NAO_REALIZADO' },
              { id: 'r3', valor: '1.01', status: 'EM_PROCESSAMENTO' },
              { id: 'r4', valor: '0.07', status: 'DEVOLVIDO' },
            ],
          },
        ],
      }),
    );
    expect(listed).toEqual({
      providerPaymentId: 'a'.repeat(32),
      status: 'paid',
      amount: 199_007,
      amountRefunded: 1_007,
      fee: null,
      method: 'pix',
      createdAt: new Date('2026-03-01T13:00:00.000Z'),
      reference: null,
    });
  });

  it.each([
    ['ATIVA', 'pending'],
    ['CONCLUIDA', 'paid'],
    ['REMOVIDA_PELO_USUARIO_RECEBEDOR', 'canceled'],
    ['REMOVIDA_PELO_PSP', 'canceled'],
  ] as const)('status %s is %s', (status, expected) => {
    expect(cobToListedCharge(cob({ status })).status).toBe(expected);
  });

  it('pages by the page count, drops what lies outside [from, to), and reads its cursor back', () => {
    const list = {
      parametros: { paginacao: { paginaAtual: 0, itensPorPagina: 2, quantidadeDePaginas: 2, quantidadeTotalDeItens: 3 } },
      cobs: [cob({ txid: 'in' }), cob({ txid: 'at-to', calendario: { criacao: '2026-03-02T12:00:00.000Z', expiracao: 60 } })],
    };
    const page = efiCobListPage(list, period, 0, 2);
    expect(page.charges.map((c) => c.providerPaymentId)).toEqual(['in']);
    expect(decodeEfiListCursor(page.next)).toBe(1);
    // After the last Pix page: the boleto phase.
    const last = efiCobListPage({ ...list, parametros: { paginacao: { quantidadeDePaginas: 2 } } }, period, 1, 2).next;
    expect(last).toBe(EFI_BOLETO_PHASE_CURSOR);
    expect(decodeEfiListCursor(last)).toEqual({ page: 1, previousFirst: null });
    // No page count: a short page is the last one.
    expect(efiCobListPage({ cobs: [cob()] }, period, 0, 2).next).toBe(EFI_BOLETO_PHASE_CURSOR);
    expect(decodeEfiListCursor(null)).toBe(0);
    expect(() => decodeEfiListCursor('{"pagina":-1}')).toThrow(RangeError);
    expect(() => decodeEfiListCursor('{"boletos":true,"pagina":0}')).toThrow(RangeError);
  });

  it('lists boletos by the São Paulo days of the period, keeping those created in [from, to)', () => {
    const url = new URL(`https://x${cobrancaListPath(period, 2, 50)}`);
    expect(url.pathname).toBe('/v1/charges');
    // from 2026-03-01 09:00 and to 2026-03-02 09:00 in São Paulo; the page (from 1) and its size.
    expect(Object.fromEntries(url.searchParams)).toEqual({ charge_type: 'billet', begin_date: '2026-03-01', end_date: '2026-03-02', limit: '50', page: '2' });
    const listed = cobrancaListCharges(
      cobrancaListData({
        code: 200,
        data: [
          { charge_id: 1, total: 5000, status: 'waiting', custom_id: 'orq_abc', created_at: '2026-03-01 08:59:59' },
          { charge_id: 2, total: 2590, status: 'paid', custom_id: 'orq_def', created_at: '2026-03-01 09:00:00' },
          { charge_id: 3, total: 700, status: 'unpaid', custom_id: null, created_at: '2026-03-02 08:59:59' },
          { charge_id: 4, total: 800, status: 'canceled', created_at: '2026-03-02 09:00:00' },
        ],
      }),
      period,
    );
    expect(listed).toEqual([
      { providerPaymentId: '2', status: 'paid', amount: 2590, amountRefunded: 0, fee: null, method: 'boleto', createdAt: new Date('2026-03-01T12:00:00.000Z'), reference: 'orq_def' },
      { providerPaymentId: '3', status: 'canceled', amount: 700, amountRefunded: 0, fee: null, method: 'boleto', createdAt: new Date('2026-03-02T11:59:59.000Z'), reference: null },
    ]);
    expect(cobrancaListData({ code: 200 })).toEqual([]);
  });

  it('pages through the boletos while pages come back full, and stops with a note on a page repeated', () => {
    const boleto = (id: number): EfiListedCobranca => ({ charge_id: id, total: 100, status: 'waiting', created_at: '2026-03-01 10:00:00' });
    const first = efiBoletoListPage([boleto(1), boleto(2)], period, { page: 1, previousFirst: null }, 2);
    expect(first.charges.map((c) => c.providerPaymentId)).toEqual(['1', '2']);
    expect(decodeEfiListCursor(first.next)).toEqual({ page: 2, previousFirst: 1 });
    // A short page ends the list; so does an empty one.
    expect(efiBoletoListPage([boleto(3)], period, { page: 2, previousFirst: 1 }, 2)).toEqual({ charges: [expect.objectContaining({ providerPaymentId: '3' })], next: null });
    expect(efiBoletoListPage([], period, { page: 3, previousFirst: 3 }, 2)).toEqual({ charges: [], next: null });
    // The same page again (an API ignoring `page`): no endless loop, and the run is told.
    expect(efiBoletoListPage([boleto(1), boleto(2)], period, { page: 2, previousFirst: 1 }, 2)).toEqual({ charges: [], next: null, notes: [EFI_BOLETO_PAGING_NOTE] });
  });
});
