/**
 * BOLETO charges: the slip made at creation (a FEBRABAN-valid 47-digit linha digitável and its
 * 44-digit barcode from the kit, with a `nossoNumero`), the answer of
 * `GET /payments/:id/identificationField` (`{identificationField, nossoNumero, barCode}`, the field
 * names psp-apis.md gives, marked unconfirmed there) and the slip page `bankSlipUrl` points at
 * (`https://sandbox.asaas.com/b/pdf/<token>` at Asaas, a PDF; here an HTML page on the control port).
 * Paid by the control pay route like a Pix charge: RECEIVED at once, `PAYMENT_RECEIVED`.
 */
import { Router } from 'express';
import { randomInt } from 'node:crypto';
import { escapeHtml, newBoleto } from '../../kit';
import type { EmulatorState, StoredBoleto, StoredPayment } from './emulator-state';

/**
 * The bank code printed on the emulator's slips. Which bank registers Asaas's boletos is not in the
 * provider facts; the kit's default (341) makes a line any FEBRABAN check accepts.
 */
const SLIP_BANK = '341';

export function newStoredBoleto(valueCents: number, dueDate: string): StoredBoleto {
  const { digitableLine, barcode } = newBoleto(valueCents, dueDate, SLIP_BANK);
  return { identificationField: digitableLine, barCode: barcode, nossoNumero: String(randomInt(10_000_000, 100_000_000)) };
}

/** `bankSlipUrl` of a BOLETO charge (null for the other billing types, as Asaas answers). */
export function bankSlipUrl(payment: Pick<StoredPayment, 'id' | 'billingType'>, invoiceBase: string): string | null {
  // The same token as the invoice page's (asaas-json.ts invoiceToken).
  return payment.billingType === 'BOLETO' ? `${invoiceBase}/b/pdf/${payment.id.slice('pay_'.length)}` : null;
}

export function identificationFieldJson(boleto: StoredBoleto) {
  return { identificationField: boleto.identificationField, nossoNumero: boleto.nossoNumero, barCode: boleto.barCode };
}

function brl(cents: number): string {
  return `R$ ${Math.floor(cents / 100)},${String(cents % 100).padStart(2, '0')}`;
}

/** The slip page (`bankSlipUrl`), public like Asaas's. */
export function bankSlipRoutes(state: EmulatorState): Router {
  const router = Router();
  router.get('/b/pdf/:token', (req, res) => {
    const token = req.params['token'] ?? '';
    const payment = /^[0-9]+$/.test(token) ? state.findPayment(`pay_${token}`) : undefined;
    if (!payment?.boleto) return res.status(404).type('html').send('<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Boleto não encontrado</title></head><body><p>Boleto não encontrado.</p></body></html>');
    const status = payment.deleted ? 'DELETED' : payment.status;
    res
      .status(200)
      .type('html')
      .send(
        '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8">' +
          `<title>Boleto ${escapeHtml(payment.boleto.nossoNumero)} — Asaas (emulador)</title></head><body>` +
          `<h1>Boleto · ${brl(payment.valueCents)}</h1>` +
          `<p>Vencimento: ${escapeHtml(payment.dueDate.split('-').reverse().join('/'))}</p>` +
          `<p id="boleto-status" data-status="${status}">Situação: ${status}</p>` +
          `<p>Linha digitável: <code id="boleto-line">${escapeHtml(payment.boleto.identificationField)}</code></p>` +
          `<p>Código de barras: <code id="boleto-barcode">${escapeHtml(payment.boleto.barCode)}</code></p>` +
          '</body></html>',
      );
  });
  return router;
}
