/**
 * Woovi subaccounts (SubaccountCapable in provider-subaccounts.ts), given the adapter's `api` call.
 * Sources: developers.woovi.com "Como criar uma subconta" (`POST /api/v1/subaccount {name, pixKey}`,
 * both required; Woovi checks the key exists before creating), "Como acessar saldo e detalhes de
 * uma Subconta" (`GET /api/v1/subaccount/{pixKey}` → `{SubAccount{name, pixKey, balance}}`),
 * woovibr/woovi-prompts "subaccount" (list, withdraw).
 *
 * The Pix key IS the subaccount at Woovi: it is the providerSubaccountId, and what makes a repeated
 * create find the first (our subaccount id goes nowhere: Woovi keeps only name and key). Woovi has
 * no identity onboarding: a subaccount is usable as soon as it exists, so it is `active` at once.
 *
 * Unconfirmed (marked where read): the create answer's shape (the read's `SubAccount` assumed, other
 * spellings accepted) and whether a repeated key is answered or refused (a refusal saying the key
 * exists is followed by a read of it).
 */
import { ProviderError } from '../provider-adapter';
import type { CreateSubaccountInput, ProviderSubaccount, SubaccountBalance, SubaccountRequirement } from '../provider-subaccounts';
import { errorMessage, providerErrorFor } from './woovi.transformers';

/** Woovi asks for a name and the Pix key only. */
export const WOOVI_SUBACCOUNT_REQUIREMENTS: readonly SubaccountRequirement[] = [{ field: 'name' }, { field: 'pix_key' }];

type Api = (method: 'GET' | 'POST', path: string, purpose: 'read' | 'write', body?: unknown) => Promise<{ status: number; body: unknown }>;

interface WooviSubaccount {
  name: string;
  pixKey: string;
  balance?: number;
}

/** `{SubAccount{…}}` per the docs; `subAccount` or the object itself accepted (create answer unconfirmed). */
function subaccountOf(body: unknown): WooviSubaccount | undefined {
  const outer = body as { SubAccount?: unknown; subAccount?: unknown } | undefined;
  const candidate = (outer?.SubAccount ?? outer?.subAccount ?? body) as Partial<WooviSubaccount> | undefined;
  if (typeof candidate?.pixKey !== 'string' || candidate.pixKey.length === 0) return undefined;
  return { name: typeof candidate.name === 'string' ? candidate.name : '', pixKey: candidate.pixKey, ...(typeof candidate.balance === 'number' ? { balance: candidate.balance } : {}) };
}

function toProviderSubaccount(subaccount: WooviSubaccount): ProviderSubaccount {
  return {
    providerSubaccountId: subaccount.pixKey,
    splitTarget: subaccount.pixKey,
    status: 'active',
    statusDetail: 'Ativa: a Woovi não exige verificação de identidade para subcontas.',
    // Woovi reports no status for a subaccount: it exists or it does not.
    providerStatus: 'ACTIVE',
    details: { pix_key: subaccount.pixKey, name: subaccount.name },
  };
}

const path = (pixKey: string) => `/api/v1/subaccount/${encodeURIComponent(pixKey)}`;

async function readSubaccount(api: Api, pixKey: string): Promise<WooviSubaccount> {
  const answer = await api('GET', path(pixKey), 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'get subaccount');
  const subaccount = subaccountOf(answer.body);
  if (!subaccount) throw new ProviderError('not_created', 'provider_error', `woovi get subaccount: HTTP ${answer.status} without a readable subaccount`, answer.status);
  return subaccount;
}

/** A refusal about the key or the name names the field, so the caller answers a 400 with its `param`. */
function refusal(status: number, body: unknown): ProviderError {
  const error = providerErrorFor(status, body, 'create subaccount');
  if (error.kind !== 'rejected') return error;
  const message = errorMessage(body) ?? '';
  if (/pix/i.test(message)) {
    return new ProviderError('rejected', 'provider_rejected', error.message, status, { name: 'pix_key', publicMessage: 'A Woovi recusou a chave Pix da subconta: confira se ela existe.' });
  }
  if (/name|nome/i.test(message)) return new ProviderError('rejected', 'provider_rejected', error.message, status, { name: 'name', publicMessage: 'A Woovi recusou o nome da subconta.' });
  return error;
}

export async function createWooviSubaccount(api: Api, input: CreateSubaccountInput): Promise<ProviderSubaccount> {
  if (!input.pixKey) {
    throw new ProviderError('rejected', 'provider_rejected', 'woovi create subaccount: a Pix key is required', undefined, {
      name: 'pix_key',
      publicMessage: 'A Woovi identifica a subconta pela chave Pix: informe pix_key.',
    });
  }
  const pixKey = input.pixKey.key;
  const answer = await api('POST', '/api/v1/subaccount', 'write', { name: input.name, pixKey });
  if (answer.status === 200 || answer.status === 201) {
    const created = subaccountOf(answer.body);
    if (created) return toProviderSubaccount(created);
    // A success without the subaccount (shape unconfirmed): the key names it, read it back.
    return toProviderSubaccount(await readSubaccount(api, pixKey));
  }
  // Unconfirmed: should Woovi refuse a key it already holds instead of answering it, the read finds it.
  if (answer.status === 400 && /j[áa] (existe|cadastrad)|already/i.test(errorMessage(answer.body) ?? '')) return toProviderSubaccount(await readSubaccount(api, pixKey));
  throw refusal(answer.status, answer.body);
}

export async function getWooviSubaccount(api: Api, pixKey: string): Promise<ProviderSubaccount> {
  return toProviderSubaccount(await readSubaccount(api, pixKey));
}

/** The balance the subaccount read carries (cents); Woovi reports no pending part. */
export async function wooviSubaccountBalance(api: Api, pixKey: string): Promise<SubaccountBalance> {
  const subaccount = await readSubaccount(api, pixKey);
  if (subaccount.balance === undefined) throw new ProviderError('not_created', 'provider_error', 'woovi get subaccount: answer without a balance');
  return { available: subaccount.balance, asOf: new Date() };
}
