import type { StoredPayment } from './emulator-state';
import { chargebackJson, decideChargeback, openChargeback, receiveDocumentation } from './chargebacks';

const now = new Date('2026-03-10T12:00:00Z');
const payment = (overrides: Partial<StoredPayment> = {}): StoredPayment =>
  ({ id: 1_320_000_001, userId: 7, status: 'approved', request: { kind: 'card', amountCents: 10_000 }, ...overrides }) as unknown as StoredPayment;

const upload = (parts: { type: string; content: string; name?: string }[]) =>
  Buffer.from(
    parts.map((p) => `--b1\r\nContent-Disposition: form-data; name="${p.name ?? 'files[]'}"; filename="f"\r\nContent-Type: ${p.type}\r\n\r\n${p.content}\r\n`).join('') + '--b1--\r\n',
    'latin1',
  );

describe('Mercado Pago emulator chargebacks', () => {
  it('opens one chargeback per approved card payment, for at most its amount', () => {
    expect(() => openChargeback(payment({ request: { kind: 'pix', amountCents: 10_000 } } as never), {}, now)).toThrow(/not a card/);
    expect(() => openChargeback(payment({ status: 'pending' }), {}, now)).toThrow(/not approved/);
    expect(() => openChargeback(payment(), { amountCents: 10_001 }, now)).toThrow(/exceeds/);
    const p = payment();
    const chargeback = openChargeback(p, {}, now);
    expect(chargebackJson(chargeback)).toMatchObject({ payments: [p.id], amount: 100, reason: 'general', coverage_applied: null, documentation_status: 'pending', documentation: [] });
    expect(chargeback.id).toMatch(/^\d{18}$/);
    expect(() => openChargeback(p, {}, now)).toThrow(/already has/);
  });

  it('takes documents once, as pdf/jpg/png files[], before the deadline and the decision', () => {
    const late = openChargeback(payment(), {}, now);
    expect(() => receiveDocumentation(late, upload([{ type: 'application/pdf', content: '%PDF-1.4 x' }]), 'b1', new Date(now.getTime() + 11 * 86_400_000))).toThrow(/deadline/);
    const c = openChargeback(payment(), {}, now);
    expect(() => receiveDocumentation(c, upload([{ type: 'text/plain', content: 'hi' }]), 'b1', now)).toThrow(/not .jpg/);
    expect(() => receiveDocumentation(c, upload([{ type: 'application/pdf', content: 'not a pdf' }]), 'b1', now)).toThrow(/not a PDF/);
    expect(() => receiveDocumentation(c, upload([{ type: 'image/png', content: 'x', name: 'other' }]), 'b1', now)).toThrow(/no files/);
    receiveDocumentation(c, upload([{ type: 'application/pdf', content: '%PDF-1.4 x' }, { type: 'image/png', content: 'png' }]), 'b1', now);
    expect(chargebackJson(c)).toMatchObject({ documentation_status: 'review_pending', documentation: [{ type: 'application/pdf' }, { type: 'image/png' }] });
    expect(() => receiveDocumentation(c, upload([{ type: 'application/pdf', content: '%PDF-1.4 y' }]), 'b1', now)).toThrow(/review_pending/);
    decideChargeback(c, 'won', now);
    expect(chargebackJson(c)).toMatchObject({ coverage_applied: true, documentation_status: 'valid' });
    expect(() => decideChargeback(c, 'lost', now)).toThrow(/already decided/);
    const undocumented = openChargeback(payment(), {}, now);
    expect(chargebackJson(decideChargeback(undocumented, 'lost', now))).toMatchObject({ coverage_applied: false, documentation_status: 'not_supplied' });
  });
});
