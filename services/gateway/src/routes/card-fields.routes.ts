import { randomBytes } from 'node:crypto';
import { AppError, isAppError } from '@orquestra/platform';
import express, { Router, type Request, type Response } from 'express';
import { renderFramePage, renderRefusedFramePage } from '../card-fields/frame.page';
import { FIELDS_SCRIPT } from '../card-fields/fields.script';
import type { RouteContext } from '../http/app.deps';
import { rpcOptions } from '../http/request-context';
import { toTokenizeResultJson } from '../mappers/card.mapper';
import { TOKENIZE_FIELD_MESSAGES, TokenizeCardSchema } from '../schemas/card.schema';

const ORIGIN_SHAPE = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;
const PK_SHAPE = /^pk_(test|live)_[A-Za-z0-9_-]{1,100}$/;
/** Params of Tokenize errors that are about the page or the key, not the card typed. */
const NOT_ALLOWED_PARAMS = new Set(['origin', 'publishable_key']);

/**
 * The card fields (spec §4 Saved cards), public (no API key):
 *   GET  /v1/cards/fields.js   the loader the merchant's page includes
 *   GET  /cards/frame          the iframe page holding the inputs (platform origin)
 *   POST /v1/cards/tokenize    the iframe's call: card → tok_… (vault.Tokenize)
 * Nothing here logs a body: the access log writes method, path and status only.
 */
export function cardFieldsRoutes(context: RouteContext): Router {
  const { clients, settings } = context;
  const router = Router();
  const platformOrigin = new URL(settings.publicBaseUrl).origin;
  // Card data is small; anything bigger is not the iframe.
  const smallJson = express.json({ limit: '2kb', strict: true, type: () => true });

  router.get('/v1/cards/fields.js', (_req, res) => {
    res
      .status(200)
      .setHeader('Content-Type', 'application/javascript; charset=utf-8')
      .setHeader('Cache-Control', 'public, max-age=300')
      .setHeader('X-Content-Type-Options', 'nosniff')
      // Loaded by <script> from the merchant's origin.
      .setHeader('Cross-Origin-Resource-Policy', 'cross-origin')
      .send(FIELDS_SCRIPT);
  });

  /**
   * The frame renders only for a parent the merchant allows. The page is framed by the origin the
   * loader names (`origin`), the vault is asked whether that origin may show this key's fields,
   * and the CSP's frame-ancestors names that origin alone, so a page lying about its origin is
   * refused by the browser itself; the frame then talks only to that origin.
   */
  router.get('/cards/frame', async (req, res) => {
    const pk = typeof req.query['pk'] === 'string' ? req.query['pk'] : '';
    const origin = typeof req.query['origin'] === 'string' ? req.query['origin'].toLowerCase() : '';
    const nonce = randomBytes(16).toString('base64');
    if (!PK_SHAPE.test(pk) || !ORIGIN_SHAPE.test(origin)) {
      return sendFrame(res, 400, renderRefusedFramePage({ message: 'Campos de cartão mal configurados: confira a publishableKey de GET /v1/cards/config.', nonce }), nonce, '*');
    }
    const verdict = await originVerdict(context, res, pk, origin);
    if (verdict !== 'allowed') {
      const message =
        verdict === 'unavailable'
          ? 'Os campos de cartão estão indisponíveis agora. Recarregue a página em instantes.'
          : `Este site (${origin}) não está autorizado a mostrar os campos de cartão desta loja. A loja pode autorizá-lo em PATCH /v1/cards/config (allowed_origins).`;
      return sendFrame(res, verdict === 'unavailable' ? 503 : 403, renderRefusedFramePage({ message, nonce }), nonce, '*');
    }
    sendFrame(res, 200, renderFramePage({ publishableKey: pk, parentOrigin: origin, nonce }), nonce, origin);
  });

  router.post('/v1/cards/tokenize', async (req, res, next) => {
    // Only the card fields' own page (this origin) calls it from a browser.
    const site = req.get('sec-fetch-site');
    const origin = req.get('origin');
    const sameHost = origin !== undefined && origin === `${req.protocol}://${req.get('host') ?? ''}`;
    if (!origin || (origin !== platformOrigin && !sameHost) || (site && site !== 'same-origin')) {
      return next(new AppError('invalid_request', { param: 'origin', message: 'Esta chamada é feita só pelos campos de cartão (o script de GET /v1/cards/fields.js), nunca direto da sua página ou do seu servidor.' }));
    }
    smallJson(req, res, (error?: unknown) => {
      if (error) return next(new AppError('invalid_json', { message: 'Corpo inválido.' }));
      tokenize(req, res).catch(next);
    });
  });

  async function tokenize(req: Request, res: Response): Promise<void> {
    const parsed = TokenizeCardSchema.safeParse(req.body ?? {});
    if (!parsed.success) {
      // Fixed messages: a zod message could repeat what was typed.
      const issue = parsed.error.issues[0];
      if (!issue || issue.code === 'unrecognized_keys') throw new AppError('parameter_invalid', { message: 'Corpo com campos desconhecidos.' });
      const param = String(issue.path[0] ?? 'number');
      throw new AppError(issue.code === 'invalid_type' && issue.received === 'undefined' ? 'parameter_missing' : 'parameter_invalid', {
        param,
        message: TOKENIZE_FIELD_MESSAGES[param] ?? 'Dados do cartão inválidos.',
      });
    }
    const input = parsed.data;
    const response = await clients.vault.tokenize(
      { publishable_key: input.publishable_key, origin: input.origin.toLowerCase(), number: input.number, exp_month: input.exp_month, exp_year: input.exp_year, cvc: input.cvc },
      rpcOptions(res),
    );
    res.status(201).setHeader('Cache-Control', 'no-store').json(toTokenizeResultJson(response));
  }

  return router;
}

/**
 * Whether `origin` may show the fields of `pk`. The vault answers it on Tokenize (proto: errors
 * name `origin` or `publishable_key` before the card), so the frame asks with no card at all: an
 * error about the card means the page and the key passed. Whatever this answers, POST
 * /v1/cards/tokenize is checked again by the vault with the origin the iframe saw.
 */
async function originVerdict(context: RouteContext, res: Response, pk: string, origin: string): Promise<'allowed' | 'refused' | 'unavailable'> {
  try {
    await context.clients.vault.tokenize({ publishable_key: pk, origin, number: '', exp_month: 0, exp_year: 0, cvc: '' }, rpcOptions(res));
    return 'allowed';
  } catch (error) {
    if (!isAppError(error)) return 'unavailable';
    if (error.code === 'service_unavailable' || error.code === 'internal') return 'unavailable';
    // The vault answers account_not_enabled (turned off in this mode) before it looks at the origin: no fields then either.
    if (error.code === 'not_found' || error.code === 'unauthenticated' || error.code === 'account_not_enabled' || NOT_ALLOWED_PARAMS.has(error.param ?? '')) return 'refused';
    return 'allowed';
  }
}

function sendFrame(res: Response, status: number, html: string, nonce: string, frameAncestor: string): void {
  res
    .status(status)
    .setHeader('Content-Type', 'text/html; charset=utf-8')
    .setHeader(
      'Content-Security-Policy',
      [
        "default-src 'none'",
        `style-src 'nonce-${nonce}'`,
        `script-src 'nonce-${nonce}'`,
        "connect-src 'self'",
        "form-action 'none'",
        "base-uri 'none'",
        `frame-ancestors ${frameAncestor}`,
      ].join('; '),
    )
    .setHeader('X-Content-Type-Options', 'nosniff')
    .setHeader('Referrer-Policy', 'no-referrer')
    .setHeader('Cache-Control', 'no-store')
    .send(html);
}
