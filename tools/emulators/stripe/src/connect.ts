/**
 * Stripe Connect connected accounts, the subset a platform needs to onboard sellers
 * (docs.stripe.com/api/accounts, /api/account_links, /connect/webhooks, /connect/handling-api-verification):
 * - `POST /v1/accounts` `type (express|custom), country=BR, email?, business_type (individual|company),
 *   capabilities[transfers][requested]=true, metadata?, business_profile?` → an account whose
 *   `requirements.currently_due` lists what onboarding must collect, `disabled_reason:
 *   "requirements.past_due"`, `charges_enabled`/`payouts_enabled` false, `details_submitted` false,
 *   capabilities `inactive`. Idempotent through the `Idempotency-Key` layer.
 * - `GET /v1/accounts/:id` (only the platform's own: 404 otherwise), `GET /v1/accounts?limit`.
 * - `POST /v1/account_links {account, refresh_url, return_url, type: account_onboarding|account_update}`
 *   → `{object: "account_link", created, expires_at (+300 s), url}`; the url is a page on the control
 *   port (the "hosted onboarding").
 * - `GET /v1/balance` and `/v1/payouts` with `Stripe-Account: acct_…` act on that connected account's
 *   balance and payouts (payouts.ts; filled by destination charges, destination-charges.ts); other
 *   routes refuse the header (the emulator does not otherwise act as connected accounts).
 * Every change of a connected account sends `account.updated` (with `account: acct_…` and
 * `previous_attributes`) to the platform's Connect endpoints (`connect=true`) only, as Stripe does.
 *
 * Control (onboarding happens in Stripe's pages and Stripe's review):
 * - `POST /__control/account-links/:token/complete` (or the form on the link's page): the seller filled
 *   the form: nothing currently due, `details_submitted`, `disabled_reason:
 *   "requirements.pending_verification"`, capabilities `pending`; answers the return URL. Expired or
 *   used links → 409 (Stripe sends the seller to `refresh_url`).
 * - `POST /__control/subaccounts/:id/status {status: active|refused|blocked, reason?}`: Stripe's
 *   verdict. active: capabilities `active`, `payouts_enabled`, no disabled_reason; refused:
 *   `rejected.<reason>` (fraud, terms_of_service, listed, incomplete_verification, other — default);
 *   blocked: `<reason>` (platform_paused — default, listed, other), payouts off. Any other reason
 *   text (the route is shared with the other emulators) is Stripe's `other`.
 */
import { randomBytes } from 'node:crypto';
import { Router, type RequestHandler, type Response } from 'express';
import { z } from 'zod';
import { escapeHtml, refill, sendControlError as fail } from '../../kit';
import { accountOf } from './auth';
import type { Account, EmulatorState } from './emulator-state';
import { buildEvent, type StripeEvent } from './events';
import { metadataParam, objectParam, queryString, rejectUnknown, requiredString, stringParam } from './form-params';
import { StripeApiError, stripeErrors } from './stripe-errors';
import { newId } from './stripe-ids';

type CapabilityStatus = 'inactive' | 'pending' | 'active';

export interface StoredConnectedAccount {
  id: string;
  /** The platform (caller) account id. */
  platformId: string;
  livemode: boolean;
  type: 'express' | 'custom';
  country: string;
  email: string | null;
  businessType: 'individual' | 'company' | null;
  businessName: string | null;
  metadata: Record<string, string>;
  created: number;
  capabilities: Record<string, CapabilityStatus>;
  detailsSubmitted: boolean;
  payoutsEnabled: boolean;
  currentlyDue: string[];
  disabledReason: string | null;
}

export interface StoredAccountLink {
  token: string;
  account: string;
  returnUrl: string;
  refreshUrl: string;
  created: number;
  expiresAt: number;
  used: boolean;
}

const LINK_TTL_SECONDS = 300;

/** What Stripe asks a new BR account for before it can receive transfers (a representative subset). */
function initialRequirements(businessType: StoredConnectedAccount['businessType'], email: string | null): string[] {
  const common = ['business_profile.mcc', 'business_profile.url', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip'];
  const person =
    businessType === 'company'
      ? ['company.name', 'company.tax_id', 'company.address.line1', 'company.address.city', 'company.address.postal_code', 'representative.first_name', 'representative.last_name', 'representative.id_number', 'representative.dob.day']
      : ['individual.first_name', 'individual.last_name', 'individual.id_number', 'individual.dob.day', 'individual.address.line1', 'individual.address.city', 'individual.address.postal_code', 'individual.phone'];
  return [...(businessType === null ? ['business_type'] : []), ...person, ...(email ? [] : [businessType === 'company' ? 'company.email' : 'individual.email']), ...common];
}

export function connectedAccountJson(account: StoredConnectedAccount) {
  const enabled = (name: string) => account.capabilities[name] === 'active';
  return {
    id: account.id,
    object: 'account',
    business_profile: { name: account.businessName, mcc: null, url: null },
    business_type: account.businessType,
    capabilities: { ...account.capabilities },
    charges_enabled: enabled('card_payments'),
    controller: { type: 'application', is_controller: true },
    country: account.country,
    created: account.created,
    default_currency: 'brl',
    details_submitted: account.detailsSubmitted,
    email: account.email,
    metadata: { ...account.metadata },
    payouts_enabled: account.payoutsEnabled,
    requirements: {
      alternatives: [],
      current_deadline: null,
      currently_due: [...account.currentlyDue],
      disabled_reason: account.disabledReason,
      errors: [],
      eventually_due: [...account.currentlyDue],
      past_due: account.disabledReason === 'requirements.past_due' ? [...account.currentlyDue] : [],
      pending_verification: account.disabledReason === 'requirements.pending_verification' ? ['individual.id_number'] : [],
    },
    type: account.type,
  };
}

/** Connected accounts and their onboarding links, in memory (persisted by the state file). */
export class ConnectBook {
  private readonly accounts = new Map<string, StoredConnectedAccount>();
  private readonly links = new Map<string, StoredAccountLink>();

  add(account: StoredConnectedAccount): void {
    this.accounts.set(account.id, account);
  }

  get(id: string): StoredConnectedAccount | undefined {
    return this.accounts.get(id);
  }

  /** The platform's own connected account, or Stripe's 404. */
  ofPlatform(platformId: string, id: string, param = 'account'): StoredConnectedAccount {
    const account = this.accounts.get(id);
    if (!account || account.platformId !== platformId) throw stripeErrors.resourceMissing('account', id, param);
    return account;
  }

  list(platformId: string): StoredConnectedAccount[] {
    return [...this.accounts.values()].filter((a) => a.platformId === platformId).sort((a, b) => b.created - a.created);
  }

  addLink(link: StoredAccountLink): void {
    this.links.set(link.token, link);
  }

  link(token: string): StoredAccountLink | undefined {
    return this.links.get(token);
  }

  reset(): void {
    this.accounts.clear();
    this.links.clear();
  }

  snapshot() {
    return { accounts: this.accounts, links: this.links };
  }

  restore(snapshot: ReturnType<ConnectBook['snapshot']>): void {
    refill(this.accounts, snapshot.accounts);
    refill(this.links, snapshot.links);
  }
}

/** Sends `account.updated` to the platform's Connect endpoints. */
export type ConnectEmit = (platformId: string, connectedId: string, event: StripeEvent) => void;

/** Applies a change and sends `account.updated` with what it was before. */
function update(book: ConnectBook, state: EmulatorState, emit: ConnectEmit, account: StoredConnectedAccount, change: (a: StoredConnectedAccount) => void): void {
  const before = connectedAccountJson(account);
  change(account);
  const after = connectedAccountJson(account);
  const previous: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(before)) if (JSON.stringify(value) !== JSON.stringify((after as Record<string, unknown>)[key])) previous[key] = value;
  if (Object.keys(previous).length === 0) return;
  emit(account.platformId, account.id, buildEvent('account.updated', after, account.livemode, state.nowSeconds(), {}, previous));
}

const ACCOUNT_TYPES = ['express', 'custom'] as const;

function parseUrl(value: unknown, param: string): string {
  const text = requiredString(value, param);
  try {
    const url = new URL(text);
    if (url.protocol === 'http:' || url.protocol === 'https:') return text;
  } catch {
    // answered below
  }
  throw stripeErrors.invalidValue(param, `Not a valid URL`);
}

/**
 * `Stripe-Account`: honoured on `GET /v1/balance` and `/v1/payouts` for the platform's own connected
 * accounts (`res.locals.connectedAccount`); Stripe's 403 for another account; refused elsewhere.
 */
export function stripeAccountHeader(book: ConnectBook): RequestHandler {
  return (req, res, next) => {
    const connected = req.get('stripe-account');
    if (connected === undefined) return next();
    const platform = accountOf(res);
    const account = book.get(connected);
    if (!account || account.platformId !== platform.id) {
      throw new StripeApiError(403, {
        type: 'invalid_request_error',
        code: 'account_invalid',
        message: `The provided key does not have access to account '${connected}' (or that account does not exist).`,
      });
    }
    const payouts = req.path === '/payouts' || /^\/payouts\/[^/]+$/.test(req.path);
    if (!((req.method === 'GET' && req.path === '/balance') || payouts)) {
      throw stripeErrors.invalidValue('Stripe-Account', 'The emulator honours Stripe-Account on GET /v1/balance and /v1/payouts only.');
    }
    res.locals['connectedAccount'] = account.id;
    next();
  };
}

export function connectRoutes(state: EmulatorState, book: ConnectBook, linkBase: () => string): Router {
  const router = Router();

  router.post('/accounts', (req, res) => {
    const platform = accountOf(res);
    const body = objectParam(req.body, '');
    rejectUnknown(body, ['type', 'country', 'email', 'business_type', 'capabilities', 'metadata', 'business_profile', 'expand']);
    const type = requiredString(body['type'], 'type');
    if (type === 'standard') throw stripeErrors.invalidValue('type', 'The emulator creates express and custom accounts only.');
    if (!(ACCOUNT_TYPES as readonly string[]).includes(type)) throw stripeErrors.invalidValue('type', `Invalid type: must be one of standard, express, or custom`);
    const country = (stringParam(body['country'], 'country') ?? 'BR').toUpperCase();
    if (country !== 'BR') throw stripeErrors.invalidValue('country', `The emulator's platform creates BR accounts only, not ${country}.`);
    const email = stringParam(body['email'], 'email') ?? null;
    if (email !== null && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(email)) throw stripeErrors.invalidValue('email', `Invalid email address: ${email}`);
    const businessType = stringParam(body['business_type'], 'business_type') ?? null;
    if (businessType !== null && businessType !== 'individual' && businessType !== 'company') {
      throw stripeErrors.invalidValue('business_type', 'Invalid business_type: must be one of individual, company, non_profit, or government_entity');
    }
    const capabilities: Record<string, CapabilityStatus> = {};
    for (const [name, value] of Object.entries(objectParam(body['capabilities'], 'capabilities'))) {
      const requested = stringParam(objectParam(value, `capabilities[${name}]`)['requested'], `capabilities[${name}][requested]`);
      if (!['transfers', 'card_payments'].includes(name)) throw stripeErrors.parameterUnknown(`capabilities[${name}]`);
      if (requested === 'true') capabilities[name] = 'inactive';
    }
    // Stripe: express accounts need at least transfers requested.
    if (type === 'express' && !capabilities['transfers']) throw stripeErrors.invalidValue('capabilities', 'Express accounts must request the transfers capability.');
    const profile = objectParam(body['business_profile'], 'business_profile');
    rejectUnknown(profile, ['name'], 'business_profile');
    const account: StoredConnectedAccount = {
      id: newId('acct', 16),
      platformId: platform.id,
      livemode: platform.livemode,
      type: type as StoredConnectedAccount['type'],
      country,
      email,
      businessType,
      businessName: stringParam(profile['name'], 'business_profile[name]') ?? null,
      metadata: metadataParam(body['metadata']),
      created: state.nowSeconds(),
      capabilities,
      detailsSubmitted: false,
      payoutsEnabled: false,
      currentlyDue: initialRequirements(businessType, email),
      disabledReason: 'requirements.past_due',
    };
    book.add(account);
    res.status(200).json(connectedAccountJson(account));
  });

  router.get('/accounts', (req, res) => {
    const limit = Number(queryString(req, 'limit') ?? '10');
    if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw stripeErrors.invalidValue('limit', 'This value must be between 1 and 100.');
    const all = book.list(accountOf(res).id);
    res.status(200).json({ object: 'list', data: all.slice(0, limit).map(connectedAccountJson), has_more: all.length > limit, url: '/v1/accounts' });
  });

  router.get('/accounts/:id', (req, res) => {
    res.status(200).json(connectedAccountJson(book.ofPlatform(accountOf(res).id, req.params['id'] ?? '', 'id')));
  });

  router.post('/account_links', (req, res) => {
    const platform: Account = accountOf(res);
    const body = objectParam(req.body, '');
    rejectUnknown(body, ['account', 'refresh_url', 'return_url', 'type', 'collect', 'expand']);
    const account = book.ofPlatform(platform.id, requiredString(body['account'], 'account'));
    const type = requiredString(body['type'], 'type');
    if (type !== 'account_onboarding' && type !== 'account_update') throw stripeErrors.invalidValue('type', 'Invalid type: must be one of account_onboarding or account_update');
    if (type === 'account_update' && account.type !== 'custom') throw stripeErrors.invalidValue('type', 'account_update links are only for custom accounts.');
    const link: StoredAccountLink = {
      token: randomBytes(18).toString('base64url'),
      account: account.id,
      refreshUrl: parseUrl(body['refresh_url'], 'refresh_url'),
      returnUrl: parseUrl(body['return_url'], 'return_url'),
      created: state.nowSeconds(),
      expiresAt: state.nowSeconds() + LINK_TTL_SECONDS,
      used: false,
    };
    book.addLink(link);
    res.status(200).json({ object: 'account_link', created: link.created, expires_at: link.expiresAt, url: `${linkBase()}/setup/e/${link.token}` });
  });

  return router;
}

const statusSchema = z
  .object({ status: z.enum(['active', 'refused', 'blocked']), reason: z.string().max(200).optional() })
  .strict();
const REFUSED = ['fraud', 'terms_of_service', 'listed', 'incomplete_verification', 'other'];
const BLOCKED = ['platform_paused', 'listed', 'other'];

export function connectControlRoutes(state: EmulatorState, book: ConnectBook, emit: ConnectEmit): Router {
  const routes = Router();

  /** The link's account after the seller submitted the form, or why not. */
  const complete = (res: Response, token: string): StoredAccountLink | undefined => {
    const link = book.link(token);
    if (!link) return void fail(res, 404, 'link_not_found', 'no such account link');
    if (link.used || link.expiresAt < state.nowSeconds()) return void fail(res, 409, 'link_expired', 'account link used or expired: ask for a new one (refresh_url)');
    const account = book.get(link.account);
    if (!account) return void fail(res, 404, 'account_not_found', 'the link’s account is gone');
    link.used = true;
    update(book, state, emit, account, (a) => {
      a.currentlyDue = [];
      a.detailsSubmitted = true;
      // Stripe verifies what was submitted; its verdict comes by the status route.
      if (a.disabledReason === 'requirements.past_due') a.disabledReason = 'requirements.pending_verification';
      for (const name of Object.keys(a.capabilities)) if (a.capabilities[name] === 'inactive') a.capabilities[name] = 'pending';
    });
    return link;
  };

  routes.get('/setup/e/:token', (req, res) => {
    const token = req.params['token'] ?? '';
    const link = book.link(token);
    if (!link) return void res.status(404).type('text/html').send('<!doctype html><meta charset="utf-8"><p>Link inválido.</p>');
    res
      .status(200)
      .type('text/html')
      .send(
        `<!doctype html><meta charset="utf-8"><title>Stripe Connect</title><h1>Cadastro da conta ${escapeHtml(link.account)}</h1>` +
          `<form method="post" action="/__control/account-links/${escapeHtml(token)}/complete"><button>Enviar dados</button></form>`,
      );
  });

  routes.post('/__control/account-links/:token/complete', (req, res) => {
    const link = complete(res, req.params['token'] ?? '');
    if (link) res.status(200).json({ account: link.account, redirect: link.returnUrl });
  });

  routes.post('/__control/subaccounts/:id/status', (req, res) => {
    const parsed = statusSchema.safeParse(req.body ?? {});
    if (!parsed.success) return fail(res, 400, 'invalid_request', parsed.error.issues[0]?.message ?? 'invalid body');
    const account = book.get(req.params['id'] ?? '');
    if (!account) return fail(res, 404, 'account_not_found', `no connected account ${req.params['id'] ?? ''}`);
    const { status, reason } = parsed.data;
    // Stripe gives a code, never a text: a reason that is not one of its codes (the shared route takes free text) is `other`.
    const code = reason !== undefined && (status === 'refused' ? REFUSED : BLOCKED).includes(reason) ? reason : undefined;
    update(book, state, emit, account, (a) => {
      if (status === 'active') {
        a.currentlyDue = [];
        a.detailsSubmitted = true;
        a.disabledReason = null;
        a.payoutsEnabled = true;
        for (const name of Object.keys(a.capabilities)) a.capabilities[name] = 'active';
        return;
      }
      a.disabledReason = status === 'refused' ? `rejected.${code ?? 'other'}` : (code ?? (reason === undefined ? 'platform_paused' : 'other'));
      a.payoutsEnabled = false;
      for (const name of Object.keys(a.capabilities)) a.capabilities[name] = 'inactive';
    });
    res.status(200).json(connectedAccountJson(account));
  });

  return routes;
}
