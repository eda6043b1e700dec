import { buildDefesa, EFI_INFRACAO_STATUSES, listEfiInfracoes, mapInfracaoStatus, submitEfiDefesa, toProviderDispute, type EfiInfracao } from './efi.infracoes';
import list from './fixtures/infracoes-list.json';

describe('Efí infrações (MED)', () => {
  it('maps every documented status (ACEITA = the notice upheld = lost)', () => {
    expect(Object.fromEntries(EFI_INFRACAO_STATUSES.map((s) => [s, mapInfracaoStatus(s)]))).toEqual({
      ABERTA: 'open',
      ACEITA: 'lost',
      CANCELADA_EFI: 'canceled',
      EM_DEFESA: 'under_review',
      REJEITADA: 'won',
    });
  });

  it('reads a notice: valor in reais to cents, deadline from dadosAnalise, defense by API', () => {
    expect(toProviderDispute(list.infracoes[0] as EfiInfracao)).toEqual({
      providerDisputeId: '8f7c0e3a1b2d4c5e9f0a1b2c3d4e5f60',
      kind: 'med',
      status: 'open',
      providerStatus: 'ABERTA',
      endToEndId: 'E09089356202611231200abcdef123456',
      amount: 4_990,
      reason: 'Fraude: golpe relatado pelo pagador',
      openedAt: new Date('2026-11-23T12:00:00.000Z'),
      answerDueAt: new Date('2026-11-30T12:00:00.000Z'),
      acceptsEvidence: true,
    });
  });

  it('lists through GET /v2/gn/infracoes with inicio and fim, skipping entries it cannot read', async () => {
    const calls: string[] = [];
    const disputes = await listEfiInfracoes(async (method, path) => {
      calls.push(`${method} ${path}`);
      return { status: 200, body: list };
    }, { since: new Date('2026-11-01T00:00:00.000Z'), until: new Date('2026-11-23T23:59:59.000Z') });
    expect(calls).toEqual(['GET /v2/gn/infracoes?inicio=2026-11-01T00%3A00%3A00.000Z&fim=2026-11-23T23%3A59%3A59.000Z']);
    expect(disputes.map((d) => [d.providerDisputeId, d.status, d.amount])).toEqual([
      ['8f7c0e3a1b2d4c5e9f0a1b2c3d4e5f60', 'open', 4_990],
      ['1a2b3c4d5e6f708192a3b4c5d6e7f809', 'lost', 1_000],
    ]);
  });

  it('contests with analise "rejeitado" and the text plus the links as justificativa; a refusal is rejected', async () => {
    expect(buildDefesa({ text: 'Pedido entregue.', urls: ['https://loja.example/nf.pdf', 'https://loja.example/rastreio'] })).toEqual({
      analise: 'rejeitado',
      justificativa: 'Pedido entregue.\n\nComprovantes:\nhttps://loja.example/nf.pdf\nhttps://loja.example/rastreio',
    });
    expect(buildDefesa({ text: 'Só texto.', urls: [] }).justificativa).toBe('Só texto.');
    const sent: unknown[] = [];
    await submitEfiDefesa(async (method, path, _op, body) => {
      sent.push([method, path, body]);
      return { status: 200, body: {} };
    }, { providerDisputeId: 'abc', text: 't', urls: [] });
    expect(sent).toEqual([['POST', '/v2/gn/infracoes/abc/defesa', { analise: 'rejeitado', justificativa: 't' }]]);
    await expect(
      submitEfiDefesa(async () => ({ status: 400, body: { nome: 'infracao_status_invalido', mensagem: 'não aceita defesa' } }), { providerDisputeId: 'abc', text: 't', urls: [] }),
    ).rejects.toMatchObject({ kind: 'rejected', normalizedCode: 'provider_rejected' });
  });
});
