import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CreateChargeInput } from '../provider-adapter';
import {
  buildCobRequest,
  centsToValor,
  devedorFor,
  mapCobStatus,
  pngBase64,
  txidForIdempotencyKey,
  valorToCents,
  type EfiCob,
  type EfiCobStatus,
  type EfiDevolucao,
  type EfiDevolucaoStatus,
  type EfiPix,
  type EfiQrCode,
  mapDevolucaoStatus,
  toProviderRefund,
  toProviderCharge,
} from './efi.transformers';
import { buildDevolucaoRequest, devolucaoIdFor } from './efi.refunds';
import { parseEfiWebhookBody } from './efi.webhook';
import { EFI_ERROR_TABLE, errorName, providerErrorFor } from './efi.errors';

const fixture = <T>(name: string): T => JSON.parse(readFileSync(join(__dirname, 'fixtures', name), 'utf8')) as T;
const rawFixture = (name: string): Buffer => readFileSync(join(__dirname, 'fixtures', name));

const input = (overrides: Partial<CreateChargeInput> = {}): CreateChargeInput => ({
  paymentId: 'pay_01',
  method: 'pix',
  amount: 199_007,
  customer: { name: 'Maria Aparecida Souza', document: '529.982.247-25' },
  expiresInSeconds: 3600,
  description: 'Pedido 4411',
  metadata: { order: '4411' },
  idempotencyKey: 'pay_01:acc_01',
  ...overrides,
});

describe('money', () => {
  it.each([
    [1, '0.01'],
    [10, '0.10'],
    [100, '1.00'],
    [199_007, '1990.07'],
    [9_999_999_999_99, '9999999999.99'],
  ])('%i cents is "%s" and back', (cents, valor) => {
    expect(centsToValor(cents)).toBe(valor);
    expect(valorToCents(valor)).toBe(cents);
  });

  it('refuses amounts the spec cannot carry', () => {
    expect(() => centsToValor(0)).toThrow(RangeError);
    expect(() => centsToValor(1.5)).toThrow(RangeError);
    expect(() => centsToValor(100_000_000_000_00)).toThrow(RangeError);
  });

  it('refuses valor strings that are not exactly two decimals', () => {
    for (const bad of ['12', '12.3', '12.345', '1e3', '-1.00', ' 1.00', '1,00']) expect(() => valorToCents(bad)).toThrow(RangeError);
  });

  it('keeps amounts that floats would round (0.29, 1.10, 4.35)', () => {
    expect(valorToCents('0.29')).toBe(29);
    expect(valorToCents('1.10')).toBe(110);
    expect(valorToCents('4.35')).toBe(435);
  });
});

describe('txidForIdempotencyKey', () => {
  it('is stable, alphanumeric and within 26..35 characters', () => {
    const txid = txidForIdempotencyKey('pay_01JNX3S2Q8:acc_9');
    expect(txid).toMatch(/^[a-zA-Z0-9]{26,35}$/);
    expect(txidForIdempotencyKey('pay_01JNX3S2Q8:acc_9')).toBe(txid);
    expect(txidForIdempotencyKey('pay_01JNX3S2Q8:acc_8')).not.toBe(txid);
  });
});

describe('buildCobRequest', () => {
  it('builds the cob body with devedor, solicitacaoPagador and infoAdicionais', () => {
    expect(buildCobRequest(input(), 'chave-1')).toEqual({
      calendario: { expiracao: 3600 },
      devedor: { cpf: '52998224725', nome: 'Maria Aparecida Souza' },
      valor: { original: '1990.07' },
      chave: 'chave-1',
      solicitacaoPagador: 'Pedido 4411',
      infoAdicionais: [{ nome: 'order', valor: '4411' }],
    });
  });

  it('sends devedor only with a name and a valid CPF or CNPJ', () => {
    expect(devedorFor({ name: 'ACME', document: '11.222.333/0001-81' })).toEqual({ cnpj: '11222333000181', nome: 'ACME' });
    expect(devedorFor({ name: 'Maria', document: '12345678900' })).toBeUndefined();
    expect(devedorFor({ name: 'Maria' })).toBeUndefined();
    expect(devedorFor({ name: '  ', document: '52998224725' })).toBeUndefined();
  });

  it('truncates to the Banco Central limits', () => {
    const metadata = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`k${String(i).padStart(2, '0')}${'x'.repeat(60)}`, 'v'.repeat(250)]));
    const cob = buildCobRequest(input({ description: 'd'.repeat(200), metadata }), 'chave-1');
    expect(cob.solicitacaoPagador).toHaveLength(140);
    expect(cob.infoAdicionais).toHaveLength(50);
    for (const info of cob.infoAdicionais ?? []) {
      expect(info.nome.length).toBeLessThanOrEqual(50);
      expect(info.valor.length).toBeLessThanOrEqual(200);
    }
  });

  it('does not split a surrogate pair when truncating', () => {
    const cob = buildCobRequest(input({ description: `${'a'.repeat(139)}😀😀` }), 'chave-1');
    expect(Array.from(cob.solicitacaoPagador ?? '')).toHaveLength(140);
    expect(cob.solicitacaoPagador?.endsWith('😀')).toBe(true);
  });

  it('omits empty optional fields', () => {
    const cob = buildCobRequest(input({ description: '  ', metadata: {}, customer: { name: 'X' } }), 'chave-1');
    expect(cob).toEqual({ calendario: { expiracao: 3600 }, valor: { original: '1990.07' }, chave: 'chave-1' });
  });
});

describe('toProviderCharge', () => {
  it('maps an ATIVA cob with its QR image to a pending pix_qr charge', () => {
    const cob = fixture<EfiCob>('cob-ativa.json');
    const charge = toProviderCharge(cob, fixture<EfiQrCode>('loc-qrcode.json'));
    expect(charge).toEqual({
      providerPaymentId: '7f3c1e0a9b8d4c2e6a5f4b3c2d1e0f9a',
      status: 'pending',
      amount: 199_007,
      amountPaid: 0,
      nextAction: {
        type: 'pix_qr',
        qrCode: cob.pixCopiaECola,
        qrCodeBase64: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      },
      expiresAt: new Date('2025-03-10T15:02:11.482Z'),
    });
  });

  it('maps a CONCLUIDA cob (expiracao as a string, as Efí answers GET) to paid', () => {
    const charge = toProviderCharge(fixture<EfiCob>('cob-concluida.json'));
    expect(charge).toMatchObject({
      status: 'paid',
      amount: 199_007,
      amountPaid: 199_007,
      endToEndId: 'E18236120202503101405s0a1b2c3d4e',
      paidAt: new Date('2025-03-10T14:05:47.000Z'),
      expiresAt: new Date('2025-03-10T15:02:11.482Z'),
      nextAction: { type: 'none' },
    });
  });

  it('maps REMOVIDA_PELO_PSP (expired) to canceled with a reason', () => {
    expect(toProviderCharge(fixture<EfiCob>('cob-removida-pelo-psp.json'))).toMatchObject({
      status: 'canceled',
      amount: 50,
      failureCode: 'expired',
      nextAction: { type: 'none' },
    });
  });

  it('maps every status', () => {
    const all: EfiCobStatus[] = ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'];
    expect(all.map((s) => mapCobStatus(s).status)).toEqual(['pending', 'paid', 'canceled', 'canceled']);
    expect(() => mapCobStatus('SOMETHING_NEW' as EfiCobStatus)).toThrow('unhandled value');
  });

  it('passes on PNG images only', () => {
    expect(pngBase64('data:image/png;base64,AAAA')).toBe('AAAA');
    expect(pngBase64('data:image/svg+xml;base64,AAAA')).toBeUndefined();
    expect(pngBase64(undefined)).toBeUndefined();
  });
});

describe('errors', () => {
  it('reads the error name of the three shapes', () => {
    expect(errorName(fixture('error-txid-duplicado.json'))).toBe('txid_duplicado');
    expect(errorName(fixture('error-oauth-invalid-client.json'))).toBe('invalid_client');
    expect(errorName(fixture('error-cob-operacao-invalida.json'))).toBe('CobOperacaoInvalida');
  });

  it.each([
    [400, 'error-cobranca-nao-encontrada.json', 'not_found', 'not_found'],
    [400, 'error-cob-operacao-invalida.json', 'rejected', 'provider_rejected'],
    [401, 'error-oauth-invalid-client.json', 'invalid_credentials', 'invalid_credentials'],
    [409, 'error-txid-duplicado.json', 'rejected', 'provider_rejected'],
  ])('HTTP %i with %s → %s/%s', (status, file, kind, code) => {
    const error = providerErrorFor(status, fixture(file), 'test');
    expect([error.kind, error.normalizedCode, error.httpStatus]).toEqual([kind, code, status]);
  });

  it.each([
    [403, { type: 'https://pix.bcb.gov.br/api/v2/error/AcessoNegado' }, 'invalid_credentials', 'invalid_credentials'],
    [404, undefined, 'not_found', 'not_found'],
    [400, { nome: 'chave_invalida' }, 'not_created', 'provider_error'],
    [422, { unknown: true }, 'rejected', 'provider_rejected'],
  ])('HTTP %i %j → %s/%s', (status, body, kind, code) => {
    const error = providerErrorFor(status, body, 'test');
    expect([error.kind, error.normalizedCode]).toEqual([kind, code]);
  });

  it('only fails over where this account certainly did not act', () => {
    for (const [name, rule] of Object.entries(EFI_ERROR_TABLE)) {
      if (rule.kind === 'ambiguous') throw new Error(`${name} must not be ambiguous: it is an answer`);
      if (rule.retryElsewhere) expect(['not_created', 'invalid_credentials']).toContain(rule.kind);
    }
  });
});

describe('parseEfiWebhookBody', () => {
  it('names the txids of a pix notification', () => {
    const parsed = parseEfiWebhookBody(rawFixture('webhook-pix.json'));
    expect(parsed).toMatchObject({ kind: 'pix', txids: ['7f3c1e0a9b8d4c2e6a5f4b3c2d1e0f9a'] });
  });

  it('gives a retry the same event key and a later refund notification another', () => {
    const first = parseEfiWebhookBody(rawFixture('webhook-pix.json'));
    const retry = parseEfiWebhookBody(Buffer.from(JSON.stringify(JSON.parse(rawFixture('webhook-pix.json').toString()))));
    const refund = parseEfiWebhookBody(rawFixture('webhook-devolucao.json'));
    expect(first.kind === 'pix' && retry.kind === 'pix' && first.eventKey === retry.eventKey).toBe(true);
    expect(first.kind === 'pix' && refund.kind === 'pix' && first.eventKey !== refund.eventKey).toBe(true);
  });

  it('recognizes the registration test notification', () => {
    expect(parseEfiWebhookBody(rawFixture('webhook-teste.json'))).toEqual({ kind: 'registration_test', eventKey: 'efi:teste_webhook' });
  });

  it.each(['not json', '[]', '{}', '{"pix":[]}', '{"pix":{}}', '{"pix":[1]}', '{"pix":[{"txid":"a"}]}', '{"pix":[{"endToEndId":"E1","txid":5}]}'])(
    'rejects %s',
    (body) => {
      expect(parseEfiWebhookBody(Buffer.from(body))).toEqual({ kind: 'malformed' });
    },
  );
});

describe('devoluções', () => {
  it('derives the devolução id from our refund id inside [a-zA-Z0-9]{1,35}', () => {
    expect(devolucaoIdFor('re_01jabcdefghjkmnpqrstvwxyz0')).toBe('re01jabcdefghjkmnpqrstvwxyz0');
    expect(() => devolucaoIdFor('re_' + 'x'.repeat(40))).toThrow(RangeError);
    expect(() => devolucaoIdFor('___')).toThrow(RangeError);
  });

  it('builds the body: valor in reais, natureza ORIGINAL, descricao cut to 140', () => {
    expect(buildDevolucaoRequest(1_250, undefined)).toEqual({ valor: '12.50', natureza: 'ORIGINAL' });
    expect(buildDevolucaoRequest(5, `  ${'a'.repeat(200)} `).descricao).toHaveLength(140);
    expect(() => buildDevolucaoRequest(0, undefined)).toThrow(RangeError);
  });

  it.each<[EfiDevolucaoStatus, string]>([
    ['EM_PROCESSAMENTO', 'pending'],
    ['DEVOLVIDO', 'succeeded'],
    ['NAO_REALIZADO', 'failed'],
  ])('maps %s to %s', (status, expected) => {
    expect(mapDevolucaoStatus(status)).toBe(expected);
  });

  it('reads the devoluções of the webhook fixture, and a failed one with its motivo', () => {
    const pix = fixture<{ pix: EfiPix[] }>('webhook-devolucao.json').pix[0]!;
    const devolucao = pix.devolucoes![0]!;
    expect(toProviderRefund(devolucao)).toEqual({
      providerRefundId: 'dev4411a',
      refundKey: 'dev4411a',
      amount: 199_007,
      status: 'succeeded',
      createdAt: new Date('2025-03-11T10:10:02.000Z'),
    });
    const failed: EfiDevolucao = { ...devolucao, status: 'NAO_REALIZADO', motivo: 'Conta do pagador encerrada' };
    expect(toProviderRefund(failed)).toMatchObject({ status: 'failed', failureCode: 'refund_not_completed', failureReason: 'Conta do pagador encerrada' });
  });

  it('reports a cob’s devoluções as the charge’s refunds', () => {
    const cob = fixture<EfiCob>('cob-concluida.json');
    const withRefund: EfiCob = { ...cob, pix: [{ ...cob.pix![0]!, devolucoes: fixture<{ pix: EfiPix[] }>('webhook-devolucao.json').pix[0]!.devolucoes! }] };
    expect(toProviderCharge(withRefund).refunds).toEqual([expect.objectContaining({ providerRefundId: 'dev4411a', status: 'succeeded' })]);
    expect(toProviderCharge(cob).refunds).toBeUndefined();
  });

  it('treats PixDevolucaoInvalida as a refusal that no other account would change', () => {
    const error = providerErrorFor(400, { type: 'https://pix.bcb.gov.br/api/v2/error/PixDevolucaoInvalida', title: 'Devolução inválida.', status: 400, detail: 'x' }, 'refund');
    expect({ kind: error.kind, code: error.normalizedCode }).toEqual({ kind: 'rejected', code: 'provider_rejected' });
  });
});
