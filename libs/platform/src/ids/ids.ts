import { monotonicFactory } from 'ulid';

/** The spec's id prefixes (§2), plus internal ones. */
export const ID_PREFIXES = {
  payment: 'pay',
  refund: 're',
  dispute: 'dp',
  payout: 'po',
  providerAccount: 'pa',
  apiKey: 'key',
  customer: 'cus',
  card: 'card',
  cardToken: 'tok',
  subscription: 'sub',
  subaccount: 'sub',
  event: 'evt',
  merchant: 'acct',
  attempt: 'att',
  request: 'req',
  webhookEndpoint: 'we',
  webhookDelivery: 'whd',
  routingRule: 'rr',
  payoutDestination: 'pdest',
  integration: 'itg',
  integrationDelivery: 'dlv',
  reconciliationRun: 'rec',
  reconciliationFinding: 'rcf',
  owner: 'own',
  auditEntry: 'aud',
  requestLog: 'rlog',
} as const;

export type IdKind = keyof typeof ID_PREFIXES;

const nextUlid = monotonicFactory();

/**
 * `<prefix>_<ulid>` in lower case. The ULID part is opaque to clients but sorts by creation time,
 * so "newest first" lists and `starting_after` cursors are a plain index scan on `_id`.
 */
export function newId(kind: IdKind, now: number = Date.now()): string {
  return `${ID_PREFIXES[kind]}_${nextUlid(now).toLowerCase()}`;
}

export function hasPrefix(id: string, kind: IdKind): boolean {
  return id.startsWith(`${ID_PREFIXES[kind]}_`);
}

/** The opaque 26-character part of an id (letters and digits only). */
export function idBody(id: string): string {
  return id.slice(id.indexOf('_') + 1);
}
