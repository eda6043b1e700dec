import { randomBytes } from 'node:crypto';
import { MAX_TRACKING_VALUE, TRACKING_KEYS, type common, type paymentPage } from '@orquestra/contracts';
import { isAppError, type AppError } from '@orquestra/platform';
import express, { Router, type Request, type Response } from 'express';
import type { RouteContext } from '../http/app.deps';
import { clientIp } from '../http/client-ip';
import { httpErrorFor } from '../http/error-mapper';
import { rpcOptions } from '../http/request-context';
import { isFinalStatus, renderMessagePage, renderPanel, renderPaymentPage, type PageCardFields } from '../payment-page/page.render';
import { PaymentIdSchema } from '../schemas/path-params.schema';

/** Payment ids as issued (`pay_` + ULID); anything else is not a payment page. */
const PAGE_ID = /^pay_[A-Za-z0-9]{1,96}$/;
/** A card fields token as the vault mints it; anything else posted as card_token is refused by payments. */
const CARD_TOKEN = /^[A-Za-z0-9_]{1,120}$/;
/** Spec §2: a tracking value is at most 500 characters. */
/** The visit's browser (user agent), cut to this length. */
const MAX_USER_AGENT = 500;
/** The visit's page address and referrer, cut to this length. */
const MAX_VISIT_URL = 2000;
/**
 * The page waits at most this long for its address's tracking to be stored (run alongside the
 * page's own read), so a slow store delays the page by little and never breaks it.
 */
const PAGE_TRACKING_DEADLINE_MS = 1000;
/** The visit is sent after the page, bounded so a tracking service that hangs holds nothing for long. */
const VISIT_DEADLINE_MS = 3000;

/**
 * The buyer's payment page (`payment_url`, spec §2), public (no key), server-rendered:
 *   GET  {pay base}/{id}         the page (amount, description, methods / Pix QR / final state)
 *   POST {pay base}/{id}         the buyer's choice of method (form post, then 303 back to the page);
 *                                card through the card fields posts card_token (the vault's tok_) only
 *   GET  {pay base}/{id}/status  what the page's script polls every 3 s while the payment is open
 * Mounted at the path of PAY_BASE_URL (`/pay` locally; `/` on a host of its own, `pay.<domain>`).
 */
export function paymentPageRoutes(context: RouteContext, options: { mountedAtRoot: boolean }): Router {
  const { clients } = context;
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: '2kb', parameterLimit: 5 });
  const fieldsScriptUrl = `${new URL(context.settings.publicBaseUrl).origin}/v1/cards/fields.js`;
  const payBase = (context.settings.payBaseUrl ?? `${context.settings.publicBaseUrl}/pay`).replace(/\/+$/, '');

  /**
   * The card fields for a page that offers them: the merchant's publishable key for the payment's
   * mode. Without the vault (off for the mode, or unavailable) the page shows card as before.
   */
  const cardFieldsFor = async (page: paymentPage.PaymentPage, res: Response): Promise<PageCardFields | undefined> => {
    if (!page.card_fields || page.status !== 'requires_method' || !page.merchant_id) return undefined;
    const caller: common.Caller = { merchant_id: page.merchant_id, mode: page.mode, key_id: '', restricted: false, request_id: '' };
    try {
      const { config } = await clients.vault.getCardsConfig({ caller }, rpcOptions(res));
      return config?.enabled && config.publishable_key ? { scriptUrl: fieldsScriptUrl, publishableKey: config.publishable_key } : undefined;
    } catch {
      return undefined;
    }
  };

  /** The id of a page route, or undefined: unknown shapes are a friendly 404 (or, at the host root, not ours). */
  const idOf = (req: Request, res: Response): string | undefined => {
    const raw = String(req.params['paymentId'] ?? '');
    if (PAGE_ID.test(raw) && PaymentIdSchema.safeParse(raw).success) return raw;
    if (!options.mountedAtRoot) notFound(res);
    return undefined;
  };

  /**
   * Stores the address's UTMs and click ids on the payment (keys still absent only: values sent at
   * creation win), alongside the page's read. Never fails the page: errors are only logged.
   */
  const recordPageTracking = async (id: string, tracking: Record<string, string>, res: Response): Promise<void> => {
    if (Object.keys(tracking).length === 0) return;
    try {
      await clients.payments.recordPageTracking({ payment_id: id, tracking }, rpcOptions(res, PAGE_TRACKING_DEADLINE_MS));
    } catch (error) {
      // not_found: the page answers that itself.
      if (isAppError(error) && error.code === 'not_found') return;
      context.logger.warn({ err: error, payment_id: id, request_id: res.locals.requestId }, 'payment page tracking not recorded');
    }
  };

  /**
   * The visit for attribution (tracking service), sent after the page: the buyer never waits for
   * it. Only while the buyer can still pay: a page opened after the sale ended (the merchant
   * checking it, a late link preview) must not replace the buyer's IP and browser the tools get.
   * The address sent on is the page's own (the configured pay base, the id and the tracking keys):
   * never the request's Host header or other query parameters (an appended e-mail would go out raw).
   */
  const recordVisit = (req: Request, res: Response, page: paymentPage.PaymentPage, tracking: Record<string, string>): void => {
    if (isFinalStatus(page.status)) return;
    const pageUrl = new URL(`${payBase}/${page.id}`);
    for (const [key, value] of Object.entries(tracking)) pageUrl.searchParams.set(key, value);
    const visit = {
      payment_id: page.id,
      merchant_id: page.merchant_id,
      mode: page.mode,
      tracking,
      ip: clientIp(req),
      user_agent: (req.get('user-agent') ?? '').slice(0, MAX_USER_AGENT),
      url: pageUrl.toString().slice(0, MAX_VISIT_URL),
      referrer: (req.get('referer') ?? '').slice(0, MAX_VISIT_URL),
    };
    clients.tracking.recordVisit(visit, rpcOptions(res, VISIT_DEADLINE_MS)).catch((error: unknown) => {
      context.logger.warn({ err: error, payment_id: page.id, request_id: res.locals.requestId }, 'payment page visit not recorded');
    });
  };

  // A real page load only: the status polling and the method post are not visits.
  router.get('/:paymentId', async (req, res, next) => {
    const id = idOf(req, res);
    if (!id) return options.mountedAtRoot ? next() : undefined;
    const tracking = trackingOf(req);
    try {
      const [{ page }] = await Promise.all([clients.payments.getPaymentPage({ payment_id: id }, rpcOptions(res)), recordPageTracking(id, tracking, res)]);
      if (!page) return notFound(res);
      sendPage(req, res, page, 200, undefined, await cardFieldsFor(page, res));
      recordVisit(req, res, page, tracking);
    } catch (error) {
      failure(res, error);
    }
  });

  router.post('/:paymentId', form, async (req, res, next) => {
    const id = idOf(req, res);
    if (!id) return options.mountedAtRoot ? next() : undefined;
    if (!sameOrigin(req)) {
      res.status(403);
      return sendHtml(res, renderMessagePage({ title: 'Envio recusado', text: 'A escolha da forma de pagamento só pode ser feita nesta página. Abra o link de pagamento novamente.', nonce: nonceOf(res) }));
    }
    const method = typeof req.body?.method === 'string' ? req.body.method.slice(0, 20) : '';
    // Only the card fields' token: the card itself went from the iframe to the vault.
    const rawToken = typeof req.body?.card_token === 'string' ? req.body.card_token : '';
    const cardToken = CARD_TOKEN.test(rawToken) ? rawToken : rawToken ? 'invalid' : '';
    try {
      await clients.payments.choosePaymentMethod(
        { payment_id: id, method, ...(cardToken ? { card: { token: cardToken, id: '', installments: 1, brand: '', without_cvc: false } } : {}) },
        rpcOptions(res, context.settings.createPaymentDeadlineMs),
      );
      // Post/Redirect/Get: a reload never re-posts the choice.
      res.status(303).setHeader('Location', `${req.baseUrl}/${id}`).setHeader('Cache-Control', 'no-store').end();
    } catch (error) {
      if (!isAppError(error) || error.code === 'not_found' || error.code === 'internal') return failure(res, error);
      // The page again, as it is now, with what went wrong in Portuguese.
      try {
        const { page } = await clients.payments.getPaymentPage({ payment_id: id }, rpcOptions(res));
        if (!page) return notFound(res);
        sendPage(req, res, page, httpErrorFor(error.code).status, error.message, await cardFieldsFor(page, res));
      } catch (reload) {
        failure(res, reload);
      }
    }
  });

  router.get('/:paymentId/status', async (req, res, next) => {
    const id = idOf(req, res);
    if (!id) return options.mountedAtRoot ? next() : undefined;
    try {
      const { page } = await clients.payments.getPaymentPage({ payment_id: id }, rpcOptions(res));
      if (!page) return notFound(res);
      const final = isFinalStatus(page.status);
      res.setHeader('Cache-Control', 'no-store').json({ status: page.status, final, html: final ? renderPanel(page, { formAction: '' }).html : null });
    } catch (error) {
      // An unknown payment answers as GET /pay/{id} does (the friendly page, 404), however it was found missing.
      if (isAppError(error) && error.code === 'not_found') return notFound(res);
      const status = isAppError(error) ? httpErrorFor(error.code).status : 500;
      res.status(status).setHeader('Cache-Control', 'no-store').json({ status: null, final: false, html: null });
    }
  });

  return router;
}

/**
 * The spec's tracking keys in the page's address (`?utm_source=…&fbclid=…`); other parameters
 * are not ours and are ignored. A value over 500 characters is dropped, not cut (a cut click id
 * would attribute the sale to a click that never happened); so are empty values and repeated or
 * nested parameters that are not one plain value (the first of a repeated key is taken).
 */
export function trackingOf(req: Request): Record<string, string> {
  const tracking: Record<string, string> = {};
  for (const key of TRACKING_KEYS) {
    const raw = req.query[key];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (typeof value === 'string' && value !== '' && value.length <= MAX_TRACKING_VALUE) tracking[key] = value;
  }
  return tracking;
}

/** A fresh nonce per response authorizes the page's one inline style and script (CSP). */
function nonceOf(res: Response): string {
  if (typeof res.locals['cspNonce'] !== 'string') res.locals['cspNonce'] = randomBytes(16).toString('base64');
  return res.locals['cspNonce'] as string;
}

function sendHtml(res: Response, html: string, imageOrigins: string[] = [], frameOrigin?: string): void {
  const nonce = nonceOf(res);
  res
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .setHeader(
      'Content-Security-Policy',
      [
        "default-src 'none'",
        `style-src 'nonce-${nonce}'`,
        `script-src 'nonce-${nonce}'`,
        `img-src 'self' data: ${imageOrigins.join(' ')}`.trim(),
        "connect-src 'self'",
        // The card fields' iframe (the platform's origin), only on a page that mounts them.
        ...(frameOrigin ? [`frame-src ${frameOrigin}`] : []),
        "form-action 'self'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
      ].join('; '),
    )
    .setHeader('X-Content-Type-Options', 'nosniff')
    .setHeader('X-Frame-Options', 'DENY')
    // Not no-referrer: under it browsers send `Origin: null` on the page's own form post, which the
    // CSRF guard must refuse. same-origin keeps the payment URL from leaking to other sites.
    .setHeader('Referrer-Policy', 'same-origin')
    .setHeader('Cache-Control', 'no-store')
    .send(html);
}

function sendPage(req: Request, res: Response, page: Parameters<typeof renderPaymentPage>[0], status: number, error?: string, cardFields?: PageCardFields): void {
  const rendered = renderPaymentPage(page, { formAction: `${req.baseUrl}/${page.id}`, nonce: nonceOf(res), ...(error ? { error } : {}), ...(cardFields ? { cardFields } : {}) });
  res.status(status);
  sendHtml(res, rendered.html, rendered.imageOrigins, rendered.frameOrigin);
}

function notFound(res: Response): void {
  res.status(404);
  sendHtml(
    res,
    renderMessagePage({ title: 'Pagamento não encontrado', text: 'Confira se o link está completo, exatamente como você o recebeu, ou peça um novo link a quem fez a cobrança.', nonce: nonceOf(res) }),
  );
}

function failure(res: Response, error: unknown): void {
  if (isAppError(error) && (error as AppError).code === 'not_found') return notFound(res);
  res.status(isAppError(error) ? Math.max(httpErrorFor(error.code).status, 500) : 500);
  sendHtml(res, renderMessagePage({ title: 'Página indisponível', text: 'Não foi possível carregar o pagamento agora. Tente novamente em instantes.', nonce: nonceOf(res) }));
}

/**
 * CSRF guard without cookies or tokens (the page carries no ambient credentials; the payment id in
 * the URL is the capability): a browser's POST must come from this very origin. Requests without
 * Origin and Sec-Fetch-Site (non-browser clients) pass: they could call the route directly anyway.
 */
function sameOrigin(req: Request): boolean {
  const site = req.get('sec-fetch-site');
  if (site && site !== 'same-origin' && site !== 'none') return false;
  const origin = req.get('origin');
  if (!origin) return true;
  if (origin === 'null') return false;
  try {
    return new URL(origin).host === req.get('host');
  } catch {
    return false;
  }
}
