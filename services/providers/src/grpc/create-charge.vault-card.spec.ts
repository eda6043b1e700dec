import { customerToProto, modeFromName, type providers, type vault } from '@orquestra/contracts';
import { AppError, type RpcClient } from '@orquestra/platform';
import pino from 'pino';
import type { CreateChargeInput, ProviderCharge } from '../adapters/provider-adapter';
import type { BreakerRegistry } from '../breakers/breaker-registry';
import type { ProviderAccountDoc } from '../db/provider-account.model';
import type { ProviderAccountService } from '../domain/provider-account.service';
import type { SubaccountSecrets } from '../domain/subaccount-secrets';
import { VaultCards } from '../domain/vault-cards';
import type { WebhookIntakeService } from '../domain/webhook-intake.service';
import { providersHandlers } from './providers.handlers';

// The vault at its gRPC seam (a stand-in answering RevealCard / CardApproved) and the adapter as a
// recorder; the handler and VaultCards under test are the real ones. The vault's own rules are
// tested in services/vault against the real store.
const NUMBER = '4242424242424242';
const charge = (status: ProviderCharge['status']): ProviderCharge => ({ providerPaymentId: 'pi_1', status, amount: 5_000, amountPaid: status === 'paid' ? 5_000 : 0, nextAction: { type: 'none' } });

function setUp(answer: ProviderCharge['status'], reveal: (request: vault.RevealCardRequest) => Promise<vault.RevealCardResponse>, provider = 'stripe') {
  const seen: CreateChargeInput[] = [];
  const approvals: vault.CardApprovedRequest[] = [];
  const reveals: vault.RevealCardRequest[] = [];
  const doc = { _id: 'pa_1', provider, mode: 'test', enabled: true, methods: ['card'] } as unknown as ProviderAccountDoc;
  const accounts = {
    get: () => Promise.resolve(doc),
    call: <T>(_doc: ProviderAccountDoc, operation: (adapter: { createCharge(input: CreateChargeInput): Promise<ProviderCharge> }) => Promise<T>) =>
      operation({ createCharge: (input) => Promise.resolve(void seen.push(input)).then(() => charge(answer)) }),
  } as unknown as ProviderAccountService;
  const client = {
    revealCard: (request: vault.RevealCardRequest) => Promise.resolve(void reveals.push(request)).then(() => reveal(request)),
    cardApproved: (request: vault.CardApprovedRequest) => Promise.resolve(void approvals.push(request)).then(() => ({})),
  } as unknown as RpcClient<typeof vault.VaultServiceService>;
  const handlers = providersHandlers({
    accounts,
    breakers: {} as BreakerRegistry,
    webhooks: {} as WebhookIntakeService,
    subaccountSecrets: {} as SubaccountSecrets,
    vaultCards: new VaultCards(client, pino({ level: 'silent' })),
  });
  return { handlers, seen, approvals, reveals };
}

const request = (card: providers.CreateChargeRequest['card']): providers.CreateChargeRequest => ({
  merchant_id: 'acct_1', mode: modeFromName('test'), account_id: 'pa_1', payment_id: 'pay_1', method: 'card', amount: 5_000,
  customer: customerToProto({ name: 'Ana Lima', document: '52998224725' }), expires_in_seconds: 3_600, description: '', metadata: {}, idempotency_key: 'pay_1:pa_1', splits: [], card,
});
const revealed = (cvc: string): vault.RevealCardResponse => ({
  card: { number: NUMBER, exp_month: 12, exp_year: 2030, cvc, holder_name: 'ANA LIMA', brand: 'visa', fingerprint: 'fp', card_id: 'card_1', customer_id: 'cus_1' },
});

describe('createCharge: a card from the vault', () => {
  it('a saved card: read from the vault for this call, handed to the adapter, and its security code deleted once approved', async () => {
    const { handlers, seen, approvals, reveals } = setUp('paid', () => Promise.resolve(revealed('123')));
    const answer = await handlers.createCharge(request({ token: '', id: 'card_1', installments: 3, brand: '', without_cvc: false }), { requestId: 'req_1' } as never);
    expect(reveals).toEqual([{ merchant_id: 'acct_1', mode: modeFromName('test'), card_id: 'card_1', token: '', payment_id: 'pay_1' }]);
    expect(seen[0]?.card).toEqual({ token: '', installments: 3, brand: 'visa', vaultCard: { number: NUMBER, expMonth: 12, expYear: 2030, cvc: '123', holderName: 'ANA LIMA', brand: 'visa' } });
    await new Promise((resolve) => setImmediate(resolve));
    expect(approvals).toEqual([{ merchant_id: 'acct_1', mode: modeFromName('test'), card_id: 'card_1' }]);
    // The card's data goes to the adapter only: never into the answer.
    expect(JSON.stringify(answer)).not.toContain(NUMBER);
  });

  it('a card fields token: revealed by token, the buyer’s name as holder, no security code left means none sent, nothing to approve', async () => {
    const { handlers, seen, approvals, reveals } = setUp('paid', () => Promise.resolve({ card: { ...revealed('').card!, holder_name: '', card_id: '' } }));
    await handlers.createCharge(request({ token: 'tok_1', id: '', installments: 1, brand: '', without_cvc: false }), { requestId: 'req_1' } as never);
    expect(reveals[0]).toMatchObject({ card_id: '', token: 'tok_1', payment_id: 'pay_1' });
    expect(seen[0]?.card?.vaultCard).toEqual({ number: NUMBER, expMonth: 12, expYear: 2030, holderName: 'Ana Lima', brand: 'visa' });
    await new Promise((resolve) => setImmediate(resolve));
    expect(approvals).toEqual([]);
  });

  it('a declined or pending charge keeps the security code; an account token never asks the vault', async () => {
    const declined = setUp('failed', () => Promise.resolve(revealed('123')));
    await declined.handlers.createCharge(request({ token: '', id: 'card_1', installments: 1, brand: '', without_cvc: false }), { requestId: 'r' } as never);
    await new Promise((resolve) => setImmediate(resolve));
    expect(declined.approvals).toEqual([]);
    const own = setUp('paid', () => Promise.reject(new Error('the vault must not be asked')));
    await own.handlers.createCharge(request({ token: 'pm_card_visa', id: '', installments: 1, brand: '', without_cvc: false }), { requestId: 'r' } as never);
    expect(own.reveals).toEqual([]);
    expect(own.seen[0]?.card).toEqual({ token: 'pm_card_visa', installments: 1 });
  });

  it('a card without its security code never reaches a provider that needs one (Asaas): invalid_card, saying why', async () => {
    const { handlers, seen } = setUp('paid', () => Promise.resolve({ card: { ...revealed('').card!, card_id: '' } }), 'asaas');
    await expect(handlers.createCharge(request({ token: 'tok_old', id: '', installments: 1, brand: '', without_cvc: false }), { requestId: 'r' } as never)).rejects.toMatchObject({
      code: 'invalid_card',
      param: 'card.token',
      message: expect.stringContaining('código de segurança'),
    });
    expect(seen).toEqual([]);
  });

  it('a card the vault refuses is the vault’s error, and the provider is never called', async () => {
    const { handlers, seen } = setUp('paid', () => Promise.reject(new AppError('invalid_card', { param: 'card.id' })));
    await expect(handlers.createCharge(request({ token: '', id: 'card_gone', installments: 1, brand: '', without_cvc: false }), { requestId: 'r' } as never)).rejects.toMatchObject({ code: 'invalid_card' });
    expect(seen).toEqual([]);
  });
});
