import { newId } from '@orquestra/platform';
import { ProviderError } from '../provider-adapter';
import type { CreateSubaccountInput, ProviderSubaccount, SubaccountCapable } from '../provider-subaccounts';

/**
 * The subaccount contract every SubaccountCapable adapter meets against its emulator (test-only),
 * driven through the control route the emulators with subaccounts share:
 * `POST /__control/subaccounts/:providerSubaccountId/status {status: 'active'|'refused'|'blocked',
 * reason?}` (the provider's onboarding / KYC analysis finishing). Call inside a describe, after the
 * spec's beforeAll made the target.
 */
export interface SubaccountContractTarget {
  adapter: SubaccountCapable;
  /** The emulator's control port. */
  controlUrl: string;
  /** A complete create the provider takes: one person per subaccount id, the same request on a repeat. */
  input: (subaccountId: string) => CreateSubaccountInput;
  /** The same without one field the provider requires, and the param the refusal must name. */
  missing: { input: (subaccountId: string) => CreateSubaccountInput; param: string };
  /** How many subaccounts the provider holds for our subaccount id (read at the emulator). */
  countAtProvider: (subaccountId: string) => Promise<number>;
  /** Puts `amount` cents in the subaccount's available balance at the emulator. */
  credit: (subaccount: ProviderSubaccount, amount: number) => Promise<void>;
  /** The status right after creation (pending for providers that analyse a registration). */
  createdStatus: ProviderSubaccount['status'];
}

export async function setSubaccountStatus(controlUrl: string, providerSubaccountId: string, status: 'active' | 'refused' | 'blocked', reason?: string): Promise<unknown> {
  const response = await fetch(`${controlUrl}/__control/subaccounts/${encodeURIComponent(providerSubaccountId)}/status`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ status, ...(reason ? { reason } : {}) }),
  });
  const answer = (await response.json()) as unknown;
  if (!response.ok) throw new Error(`control subaccount status: HTTP ${response.status} ${JSON.stringify(answer)}`);
  return answer;
}

const rejection = (promise: Promise<unknown>) => promise.then(() => new Error('expected a ProviderError'), (error: unknown) => error);

/**
 * `analysesRegistration` (default true): the provider approves or refuses a new subaccount later (Asaas, Pagar.me,
 * Stripe), which the emulator's control route decides; false for one that does not (nothing to move).
 */
export function subaccountContract(target: () => SubaccountContractTarget, options: { analysesRegistration: boolean } = { analysesRegistration: true }): void {
  const adapter = () => target().adapter;
  const create = (subaccountId: string) => adapter().createSubaccount(target().input(subaccountId));

  it('creates one subaccount per subaccount id: a repeat answers the same one', async () => {
    const subaccountId = newId('subaccount');
    const first = await create(subaccountId);
    const again = await create(subaccountId);
    expect(first).toMatchObject({ status: target().createdStatus, providerSubaccountId: expect.any(String), statusDetail: expect.any(String) });
    expect(again.providerSubaccountId).toBe(first.providerSubaccountId);
    expect(await target().countAtProvider(subaccountId)).toBe(1);
  });

  it('reads the subaccount back as created', async () => {
    const made = await create(newId('subaccount'));
    const read = await adapter().getSubaccount(made.providerSubaccountId, made.issuedSecret);
    expect(read).toMatchObject({ providerSubaccountId: made.providerSubaccountId, status: made.status, providerStatus: made.providerStatus, details: made.details });
  });

  it('refuses a create without a field the provider requires, naming it, and makes nothing', async () => {
    const subaccountId = newId('subaccount');
    const error = await rejection(adapter().createSubaccount(target().missing.input(subaccountId)));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'rejected', param: { name: target().missing.param, publicMessage: expect.any(String) } });
    expect(await target().countAtProvider(subaccountId)).toBe(0);
  });

  if (options.analysesRegistration) it('answers active once the provider approves it, refused once it refuses', async () => {
    const approved = await create(newId('subaccount'));
    await setSubaccountStatus(target().controlUrl, approved.providerSubaccountId, 'active');
    await expect(adapter().getSubaccount(approved.providerSubaccountId, approved.issuedSecret)).resolves.toMatchObject({ status: 'active', statusDetail: expect.any(String) });
    const refused = await create(newId('subaccount'));
    await setSubaccountStatus(target().controlUrl, refused.providerSubaccountId, 'refused', 'documento ilegível');
    await expect(adapter().getSubaccount(refused.providerSubaccountId, refused.issuedSecret)).resolves.toMatchObject({ status: 'refused', statusDetail: expect.any(String) });
  });

  it("reads the subaccount's own balance, which a credit moves", async () => {
    const made = await create(newId('subaccount'));
    await expect(adapter().getSubaccountBalance(made.providerSubaccountId, made.issuedSecret)).resolves.toMatchObject({ available: 0 });
    await target().credit(made, 12_345);
    const balance = await adapter().getSubaccountBalance(made.providerSubaccountId, made.issuedSecret);
    expect(balance.available).toBe(12_345);
    expect(balance.asOf).toBeInstanceOf(Date);
  });

  it('answers not_found for an unknown subaccount', async () => {
    const made = await create(newId('subaccount'));
    await expect(adapter().getSubaccount(`${made.providerSubaccountId}x`, made.issuedSecret)).rejects.toMatchObject({ kind: 'not_found' });
  });
}

/** A valid CPF, different each call (a provider may keep one subaccount per document or e-mail). */
export function randomCpf(): string {
  const base = Array.from({ length: 9 }, () => Math.floor(Math.random() * 10));
  const check = (digits: number[]) => {
    const rest = (digits.reduce((acc, d, i) => acc + d * (digits.length + 1 - i), 0) * 10) % 11;
    return rest === 10 ? 0 : rest;
  };
  const d1 = check(base);
  return [...base, d1, check([...base, d1])].join('');
}
