import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { capabilitiesOf, type AdapterClass } from '../adapters/adapter-capabilities';
import { AsaasAdapter } from '../adapters/asaas/asaas.adapter';
import { EfiAdapter } from '../adapters/efi/efi.adapter';
import { MercadoPagoAdapter } from '../adapters/mercadopago/mercadopago.adapter';
import { CHARGEBACK_TOPICS } from '../adapters/mercadopago/mercadopago.chargebacks';
import { PagarmeAdapter, WEBHOOK_EVENTS as PAGARME_EVENTS } from '../adapters/pagarme/pagarme.adapter';
import { ProviderError, type ChargeMethod, type CreateChargeInput, type ProviderAdapter } from '../adapters/provider-adapter';
import { StripeAdapter, WEBHOOK_EVENTS as STRIPE_EVENTS } from '../adapters/stripe/stripe.adapter';
import { WEBHOOK_EVENTS as ASAAS_EVENTS } from '../adapters/asaas/asaas.webhook';
import { WooviAdapter, WEBHOOK_EVENTS as WOOVI_EVENTS } from '../adapters/woovi/woovi.adapter';
import { PROVIDER_CATALOG } from './provider-catalog';

const ADAPTERS: Record<string, { adapter: AdapterClass; registeredEvents: readonly string[] }> = {
  asaas: { adapter: AsaasAdapter, registeredEvents: ASAAS_EVENTS },
  efi: { adapter: EfiAdapter, registeredEvents: [] },
  // No registration API: the merchant switches the chargebacks topic on in Mercado Pago's dashboard (catalog notes).
  mercadopago: { adapter: MercadoPagoAdapter, registeredEvents: CHARGEBACK_TOPICS },
  pagarme: { adapter: PagarmeAdapter, registeredEvents: PAGARME_EVENTS },
  stripe: { adapter: StripeAdapter, registeredEvents: STRIPE_EVENTS },
  woovi: { adapter: WooviAdapter, registeredEvents: WOOVI_EVENTS },
};

const METHODS: ChargeMethod[] = ['pix', 'boleto', 'card'];

describe('the provider catalog', () => {
  it('lists exactly the providers that have an adapter', () => {
    expect(Object.keys(PROVIDER_CATALOG).sort()).toEqual(Object.keys(ADAPTERS).sort());
  });

  // Each flag names what must exist in the adapter for it to be true. A capability no adapter
  // interface exists for (a card vault) must be false.
  it.each(Object.keys(ADAPTERS))('%s promises nothing its adapter does not implement', (code) => {
    const { adapter, registeredEvents } = ADAPTERS[code]!;
    const proto = adapter.prototype as unknown as Record<string, unknown>;
    const c = PROVIDER_CATALOG[code]!.capabilities;
    if (c.partialRefunds) expect(typeof proto['refundCharge']).toBe('function');
    if (c.disputeEvidence) expect(typeof proto['submitDisputeEvidence']).toBe('function');
    if (c.disputes) {
      const polled = typeof proto['listDisputes'] === 'function';
      // Reported by webhook: the events are among those the adapter registers.
      const pushed = (adapter.disputeEvents ?? []).length > 0 && (adapter.disputeEvents ?? []).every((event) => registeredEvents.includes(event));
      expect(polled || pushed).toBe(true);
    }
    const payouts = ['getBalance', 'createTransfer', 'getTransfer'].every((name) => typeof proto[name] === 'function') && (adapter.payoutDestinations ?? []).length > 0;
    expect(c.payouts).toBe(payouts);
    expect(c.payoutDestinations).toEqual(payouts ? adapter.payoutDestinations : []);
    const recurring = ['createRecurrence', 'getRecurrence', 'cancelRecurrence', 'createCycleCharge', 'getCycleCharge', 'parseRecurrenceWebhook'].every((name) => typeof proto[name] === 'function');
    expect(c.subscriptions).toBe(recurring);
    // Vault cards only where the class says its createCharge takes them (built and contract-tested).
    expect(c.cardVault).toBe(adapter.vaultCards !== undefined);
    expect(c.vaultCardsNeedCvc).toBe(adapter.vaultCards?.needsCvc ?? false);
    const subaccounts = ['createSubaccount', 'getSubaccount', 'getSubaccountBalance'].every((name) => typeof proto[name] === 'function');
    expect(c.subaccounts.supported).toBe(subaccounts);
    // The same table the 400s use: one entry per requirement, `field` or `field (type)`.
    expect(c.subaccounts.requires).toEqual(subaccounts ? (adapter.subaccountRequirements ?? []).map((r) => (r.onlyFor ? `${r.field} (${r.onlyFor})` : r.field)) : []);
    expect(PROVIDER_CATALOG[code]).toMatchObject({ methods: capabilitiesOf(adapter).methods });
  });

  it('lists what Asaas and Pagar.me require of a subaccount', () => {
    expect(PROVIDER_CATALOG['asaas']!.capabilities.subaccounts).toEqual({
      supported: true,
      requires: ['email', 'phone', 'birthdate (individual)', 'company.company_type (company)', 'monthly_income', 'address'],
    });
    expect(PROVIDER_CATALOG['pagarme']!.capabilities.subaccounts).toEqual({
      supported: true,
      requires: [
        'email',
        'phone',
        'bank_account',
        'address',
        'birthdate (individual)',
        'monthly_income (individual)',
        'occupation (individual)',
        'company.trading_name (company)',
        'company.annual_revenue (company)',
        'company.founding_date (company)',
        'partner (company)',
      ],
    });
  });

  it.each(Object.keys(ADAPTERS))('%s: customer requirements and hosted checkout only for methods it takes', (code) => {
    const definition = PROVIDER_CATALOG[code]!;
    for (const method of Object.keys(definition.customerRequires)) expect(definition.methods).toContain(method);
    for (const method of definition.hostedCheckout) expect(definition.methods).toContain(method);
  });

  it('says what each adapter implements today', () => {
    const summary = Object.fromEntries(
      Object.entries(PROVIDER_CATALOG).map(([code, d]) => [code, { methods: d.methods, refunds: d.capabilities.partialRefunds, disputes: d.capabilities.disputes, evidence: d.capabilities.disputeEvidence }]),
    );
    expect(summary).toEqual({
      asaas: { methods: ['pix', 'boleto', 'card'], refunds: true, disputes: true, evidence: false },
      efi: { methods: ['pix', 'boleto'], refunds: true, disputes: true, evidence: true },
      mercadopago: { methods: ['pix', 'boleto', 'card'], refunds: true, disputes: true, evidence: true },
      pagarme: { methods: ['pix', 'boleto', 'card'], refunds: true, disputes: true, evidence: false },
      stripe: { methods: ['pix', 'boleto', 'card'], refunds: true, disputes: true, evidence: true },
      woovi: { methods: ['pix'], refunds: true, disputes: true, evidence: false },
    });
  });
});

describe('the methods the catalog lists', () => {
  // A closed port: a request that reached the network would fail not_created, not rejected.
  let closedUrl: string;
  beforeAll(async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closedUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  function adapterFor(code: string): ProviderAdapter {
    const context = { baseUrl: closedUrl, credentials: {}, webhookUrl: `${closedUrl}/hook`, webhookSecret: 's', settings: {}, timeoutMs: 1_000 };
    switch (code) {
      case 'efi':
        return new EfiAdapter({ baseUrl: closedUrl, clientId: 'c', clientSecret: 's', certificatePem: '', privateKeyPem: '', chave: 'k', timeoutMs: 1_000, webhookSecret: 's' });
      case 'asaas':
        return new AsaasAdapter(context);
      case 'mercadopago':
        return new MercadoPagoAdapter(context);
      case 'pagarme':
        return new PagarmeAdapter(context);
      case 'stripe':
        return new StripeAdapter(context);
      default:
        return new WooviAdapter(context);
    }
  }

  const input = (method: ChargeMethod): CreateChargeInput => ({
    paymentId: 'pay_1',
    method,
    amount: 1_000,
    customer: { name: 'Ana', document: '12345678909', email: 'ana@example.com', phone: '11999999999' },
    expiresInSeconds: 3_600,
    metadata: {},
    idempotencyKey: 'pay_1:pa_1',
  });

  it.each(Object.keys(ADAPTERS))('%s refuses every other method before sending anything', async (code) => {
    const adapter = adapterFor(code);
    for (const method of METHODS.filter((m) => !PROVIDER_CATALOG[code]!.methods.includes(m))) {
      const error = await adapter.createCharge(input(method)).catch((err: unknown) => err);
      expect(error).toBeInstanceOf(ProviderError);
      expect(error).toMatchObject({ kind: 'rejected', message: expect.stringContaining(`not ${method}`) });
    }
    await (adapter as unknown as { close(): Promise<void> }).close();
  });
});
