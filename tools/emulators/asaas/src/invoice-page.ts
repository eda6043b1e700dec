/**
 * Asaas's hosted invoice page (`invoiceUrl`, `https://sandbox.asaas.com/i/<id>` at Asaas), served by
 * the control port: a small real HTML form for a card charge (number, name, expiry, CVV) that
 * confirms or declines it on submit (test-cards.ts) and sends the webhook. Plain form post, no
 * scripts; every text is HTML-escaped. A Pix charge's page only shows its copy-and-paste code.
 */
import express, { Router, type Response } from 'express';
import { invoiceToken } from './asaas-json';
import type { EmulatorState, StoredPayment } from './emulator-state';
import { applyCard, cardPayable } from './invoice-checkout';
import { escapeHtml, type Logger } from '../../kit';
import { judgeCard } from './test-cards';
import type { WebhookSender } from './webhook-sender';

function brl(cents: number): string {
  const reais = Math.floor(cents / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `R$ ${reais},${String(cents % 100).padStart(2, '0')}`;
}

const STYLE =
  'body{font-family:system-ui,sans-serif;background:#f4f6fb;margin:0;padding:24px;color:#1d2433}' +
  'main{max-width:420px;margin:0 auto;background:#fff;border-radius:12px;padding:24px;box-shadow:0 2px 8px #0001}' +
  'h1{font-size:18px;color:#0030b9;margin:0 0 4px}label{display:block;margin-top:12px;font-size:14px}' +
  'input{width:100%;box-sizing:border-box;padding:10px;border:1px solid #c5cbe0;border-radius:6px;font-size:16px}' +
  '.row{display:flex;gap:12px}.row label{flex:1}button{margin-top:18px;width:100%;padding:12px;border:0;border-radius:6px;background:#0030b9;color:#fff;font-size:16px}' +
  '.error{color:#b00020;font-weight:600}.ok{color:#12784a;font-weight:600}.amount{font-size:28px;font-weight:700;margin:12px 0}';

interface View {
  payment: StoredPayment;
  error?: string;
  values?: { holder?: string; expiry?: string };
}

function render({ payment, error, values }: View): string {
  const status = payment.deleted ? 'DELETED' : payment.status;
  let body: string;
  if (payment.deleted) {
    body = '<p id="invoice-status" data-status="DELETED" class="error">Esta cobrança foi removida pelo vendedor.</p>';
  } else if (status === 'CONFIRMED' || status === 'RECEIVED' || status === 'REFUNDED') {
    const card = payment.creditCard ? ` com o cartão ${escapeHtml(payment.creditCard.brand)} final ${escapeHtml(payment.creditCard.last4)}` : '';
    body = `<p id="invoice-status" data-status="${status}" class="ok">Pagamento confirmado${card}.</p>`;
  } else if (payment.boleto) {
    body = `<p id="invoice-status" data-status="${status}">Pague o boleto (linha digitável):</p><p><code id="boleto-line">${escapeHtml(payment.boleto.identificationField)}</code></p>`;
  } else if (payment.billingType === 'PIX') {
    body = `<p id="invoice-status" data-status="${status}">Pague com Pix (copia e cola):</p><textarea readonly rows="5" style="width:100%">${escapeHtml(payment.brCode)}</textarea>`;
  } else {
    body =
      `<p id="invoice-status" data-status="${status}">Pague com cartão de crédito.</p>` +
      (error ? `<p id="card-error" class="error" role="alert">${escapeHtml(error)}</p>` : '') +
      `<form method="post" action="/i/${escapeHtml(invoiceToken(payment))}" autocomplete="off">` +
      '<label>Número do cartão<input id="card-number" name="number" inputmode="numeric" required></label>' +
      `<label>Nome impresso no cartão<input id="card-holder" name="holder" value="${escapeHtml(values?.holder ?? '')}" required></label>` +
      `<div class="row"><label>Validade (MM/AA)<input id="card-expiry" name="expiry" placeholder="MM/AA" value="${escapeHtml(values?.expiry ?? '')}" required></label>` +
      '<label>CVV<input id="card-cvv" name="cvv" inputmode="numeric" required></label></div>' +
      '<button id="pay" type="submit">Pagar</button></form>';
  }
  return (
    '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">' +
    `<title>Fatura ${escapeHtml(payment.invoiceNumber)} — Asaas (emulador)</title><style>${STYLE}</style></head><body><main>` +
    `<h1>Asaas · Fatura ${escapeHtml(payment.invoiceNumber)}</h1>` +
    (payment.description ? `<p id="invoice-description">${escapeHtml(payment.description)}</p>` : '') +
    `<p class="amount" id="invoice-amount">${brl(payment.valueCents)}</p>` +
    `<p>Vencimento: ${escapeHtml(payment.dueDate.split('-').reverse().join('/'))}</p>` +
    `${body}</main></body></html>`
  );
}

function sendPage(res: Response, status: number, html: string): void {
  // Card data is typed here: never cached, never framed.
  res.status(status).set({ 'cache-control': 'no-store', 'x-frame-options': 'DENY', 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'" }).type('html').send(html);
}

export function invoicePageRoutes(state: EmulatorState, sender: WebhookSender, toJson: (p: StoredPayment) => unknown, logger: Logger): Router {
  const router = Router();
  const find = (token: string | undefined) => (token && /^[a-z0-9]+$/.test(token) ? state.findPayment(`pay_${token}`) : undefined);
  const notFound = (res: Response) => sendPage(res, 404, '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Fatura não encontrada</title></head><body><p>Fatura não encontrada.</p></body></html>');

  router.get('/i/:token', (req, res) => {
    const payment = find(req.params['token']);
    if (!payment) return notFound(res);
    sendPage(res, 200, render({ payment }));
  });

  router.post('/i/:token', express.urlencoded({ extended: false, limit: '8kb' }), (req, res) => {
    const payment = find(req.params['token']);
    if (!payment) return notFound(res);
    if (!cardPayable(payment)) return sendPage(res, 409, render({ payment }));
    const form = (req.body ?? {}) as Record<string, string | undefined>;
    const outcome = judgeCard(form, state.now());
    const values = { ...(form['holder'] ? { holder: form['holder'] } : {}), ...(form['expiry'] ? { expiry: form['expiry'] } : {}) };
    if (outcome.kind === 'invalid') return sendPage(res, 400, render({ payment, error: outcome.message, values }));
    applyCard(state, sender, payment, outcome, toJson);
    // The card number is never logged: only the outcome.
    logger.info({ payment: payment.id, outcome: outcome.kind, ...(outcome.kind === 'declined' ? { event: outcome.event } : {}) }, 'invoice card submitted');
    if (outcome.kind === 'approved') return res.redirect(303, `/i/${invoiceToken(payment)}`);
    sendPage(res, 402, render({ payment, error: `${outcome.message} Tente outro cartão.`, values }));
  });

  return router;
}
