import type { CreateRecurrenceInput } from '../provider-recurrences';
import {
  activationTxidFor,
  buildCobrRequest,
  buildRecRequest,
  cycleTxidFor,
  mapCobrStatus,
  mapRecStatus,
  parseEfiRecurrenceWebhookBody,
  toProviderCycleCharge,
  toProviderRecurrence,
  type EfiCobr,
  type EfiTentativa,
} from './efi.recurrences.transformers';

const input: CreateRecurrenceInput = {
  subscriptionId: 'sub_01jq3v6m2x8k4f7c9b1n5t0r2w',
  payer: { name: ' Empresa Exemplo Ltda ', document: '11.222.333/0001-81' },
  frequency: 'quarterly',
  amount: 123_456,
  description: 'Assinatura trimestral do plano Empresarial',
  startDate: '2026-03-10',
  endDate: '2027-03-10',
  retry: true,
  approvalExpiresInSeconds: 3600,
};

const attempt = (status: EfiTentativa['status'], dataLiquidacao = '2026-04-10'): EfiTentativa => ({ dataLiquidacao, tipo: 'AGND', status });

describe('the rec body', () => {
  it('carries the contract, payer, calendar, fixed amount in reais and the retry policy', () => {
    expect(buildRecRequest(input, 7)).toEqual({
      vinculo: { contrato: input.subscriptionId, devedor: { cnpj: '11222333000181', nome: 'Empresa Exemplo Ltda' }, objeto: 'Assinatura trimestral do plano Empr' },
      calendario: { dataInicial: '2026-03-10', dataFinal: '2027-03-10', periodicidade: 'TRIMESTRAL' },
      valor: { valorRec: '1234.56' },
      politicaRetentativa: 'PERMITE_3R_7D',
      loc: 7,
    });
  });

  it('journey 3 names the immediate charge; a variable amount sends no valor; no retry is NAO_PERMITE', () => {
    const body = buildRecRequest({ ...input, amount: undefined, retry: false, frequency: 'weekly' }, 3, 'abc');
    expect(body).toMatchObject({ ativacao: { dadosJornada: { txid: 'abc' } }, politicaRetentativa: 'NAO_PERMITE', calendario: { periodicidade: 'SEMANAL' } });
    expect(body.valor).toBeUndefined();
  });

  it('refuses a payer without a valid document, and a contract over 35 characters', () => {
    expect(() => buildRecRequest({ ...input, payer: { name: 'X', document: '123' } }, 1)).toThrow(RangeError);
    expect(() => buildRecRequest({ ...input, subscriptionId: 'x'.repeat(36) }, 1)).toThrow(RangeError);
  });
});

describe('the cobr body and ids', () => {
  it('amount in reais, business-day adjustment, description cut to 140', () => {
    expect(buildCobrRequest('RR1', 4990, '2026-04-10', ` ${'a'.repeat(200)} `)).toEqual({
      idRec: 'RR1',
      calendario: { dataDeVencimento: '2026-04-10' },
      valor: { original: '49.90' },
      ajusteDiaUtil: true,
      infoAdicional: 'a'.repeat(140),
    });
    expect(() => buildCobrRequest('RR1', 0, '2026-04-10', undefined)).toThrow();
  });

  it('derives stable, distinct txids in the Banco Central pattern', () => {
    expect(cycleTxidFor('pay_1')).toBe(cycleTxidFor('pay_1'));
    expect(cycleTxidFor('pay_1')).not.toBe(activationTxidFor('pay_1'));
    expect(cycleTxidFor('pay_1')).toMatch(/^[a-zA-Z0-9]{26,35}$/);
  });
});

describe('status maps', () => {
  it.each([
    ['CRIADA', 'pending'],
    ['APROVADA', 'active'],
    ['REJEITADA', 'refused'],
    ['EXPIRADA', 'expired'],
    ['CANCELADA', 'canceled'],
  ] as const)('rec %s → %s', (status, ours) => expect(mapRecStatus(status)).toBe(ours));

  it.each([
    ['CRIADA', [], 'scheduled'],
    ['ATIVA', [attempt('AGENDADA')], 'scheduled'],
    ['ATIVA', [attempt('FALHA')], 'retrying'],
    ['ATIVA', [attempt('FALHA'), attempt('AGENDADA', '2026-04-13')], 'retrying'],
    ['CONCLUIDA', [attempt('LIQUIDADA')], 'paid'],
    ['EXPIRADA', [attempt('FALHA')], 'failed'],
    ['REJEITADA', [], 'failed'],
    ['CANCELADA', [attempt('CANCELADA')], 'canceled'],
  ] as const)('cobr %s with %j → %s', (status, tentativas, ours) => expect(mapCobrStatus({ status, tentativas: [...tentativas] })).toBe(ours));
});

describe('answers', () => {
  it('a cobr in cents, with its failed attempts, next attempt and paying Pix', () => {
    const cobr: EfiCobr = {
      idRec: 'RR1',
      txid: 't1',
      calendario: { dataDeVencimento: '2026-04-10' },
      valor: { original: '1000.01' },
      status: 'CONCLUIDA',
      tentativas: [attempt('FALHA'), { ...attempt('LIQUIDADA', '2026-04-13'), endToEndId: 'E0908935620260413' }],
    };
    expect(toProviderCycleCharge(cobr)).toEqual({
      providerChargeId: 't1',
      providerRecurrenceId: 'RR1',
      status: 'paid',
      providerStatus: 'CONCLUIDA',
      amount: 100_001,
      dueDate: '2026-04-10',
      failedAttempts: 1,
      endToEndId: 'E0908935620260413',
    });
  });

  it('a recurrence shows its QR only while pending', () => {
    const rec = { idRec: 'RR1', vinculo: { contrato: 'sub_1' }, calendario: { dataInicial: '2026-03-10', periodicidade: 'MENSAL' as const }, politicaRetentativa: 'NAO_PERMITE', dadosQR: { pixCopiaECola: '000201…', jornada: 'JORNADA_2' } };
    expect(toProviderRecurrence({ ...rec, status: 'CRIADA' }, 'iVBOR')).toMatchObject({ status: 'pending', approval: { qrCode: '000201…', qrCodeBase64: 'iVBOR' } });
    expect(toProviderRecurrence({ ...rec, status: 'APROVADA' }).approval).toBeUndefined();
  });

  it('journey 3 names the immediate charge the approval pays', () => {
    const rec = { idRec: 'RR1', vinculo: { contrato: 'sub_1' }, calendario: { dataInicial: '2026-03-10', periodicidade: 'MENSAL' as const }, politicaRetentativa: 'NAO_PERMITE', status: 'APROVADA' as const };
    expect(toProviderRecurrence({ ...rec, ativacao: { dadosJornada: { txid: 'cob1' } } }).approvalChargeId).toBe('cob1');
    expect(toProviderRecurrence(rec).approvalChargeId).toBeUndefined();
  });
});

describe('webhook bodies', () => {
  const body = (value: unknown) => Buffer.from(JSON.stringify(value));

  it('reads recs and cobsr as events, with a key that changes with the content', () => {
    const recs = parseEfiRecurrenceWebhookBody(body({ recs: [{ idRec: 'RR1', status: 'APROVADA' }] }));
    expect(recs).toMatchObject({ kind: 'events', events: [{ type: 'recurrence', providerRecurrenceId: 'RR1', status: 'active', providerStatus: 'APROVADA' }] });
    const failed = parseEfiRecurrenceWebhookBody(body({ cobsr: [{ idRec: 'RR1', txid: 't1', status: 'ATIVA', tentativas: [attempt('FALHA')] }] }));
    expect(failed).toMatchObject({ kind: 'events', events: [{ type: 'cycle', providerChargeId: 't1', providerRecurrenceId: 'RR1', status: 'retrying' }] });
    const again = parseEfiRecurrenceWebhookBody(body({ cobsr: [{ idRec: 'RR1', txid: 't1', status: 'ATIVA', tentativas: [attempt('FALHA')] }] }));
    const retried = parseEfiRecurrenceWebhookBody(body({ cobsr: [{ idRec: 'RR1', txid: 't1', status: 'ATIVA', tentativas: [attempt('FALHA'), attempt('AGENDADA', '2026-04-13')] }] }));
    expect(again).toEqual(failed);
    expect((retried as { eventKey: string }).eventKey).not.toBe((failed as { eventKey: string }).eventKey);
  });

  it('leaves other bodies to the Pix intake and refuses malformed ones', () => {
    expect(parseEfiRecurrenceWebhookBody(body({ pix: [{ endToEndId: 'E1' }] }))).toEqual({ kind: 'other' });
    expect(parseEfiRecurrenceWebhookBody(body({ recs: [{ idRec: 'RR1', status: 'NOVO' }] }))).toEqual({ kind: 'malformed' });
    expect(parseEfiRecurrenceWebhookBody(body({ cobsr: {} }))).toEqual({ kind: 'malformed' });
    expect(parseEfiRecurrenceWebhookBody(body({ recs: [] }))).toEqual({ kind: 'malformed' });
    expect(parseEfiRecurrenceWebhookBody(Buffer.from('not json'))).toEqual({ kind: 'malformed' });
  });
});
