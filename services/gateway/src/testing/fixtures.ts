// Test helpers only: never imported by production code.
import { common, type payments, type payouts, type providers, type routing, type subscriptions } from '@orquestra/contracts';
import { createLogger } from '@orquestra/platform';
import type { GatewayDeps, GatewaySettings } from '../http/app.deps';
import type { ReadinessCheck } from '../health/readiness.probe';

export const silentLogger = createLogger({ service: 'gateway-test', level: 'silent' });

export const TEST_SETTINGS: GatewaySettings = {
  createPaymentDeadlineMs: 2_000,
  keyCacheTtlMs: 30_000,
  keyCacheMaxEntries: 100,
  trustProxy: 'loopback',
  publicBaseUrl: 'http://localhost:8080',
};

export const alwaysReady: ReadinessCheck = {
  check: async () => ({ ready: true, checks: { accounts: 'SERVING', payments: 'SERVING' } }),
};

/** A well-formed test key (same shape as the accounts service issues). */
export const TEST_KEY = 'svc_test_AbCdEfGhIjKlMnOpQrStUvWxYz012345';
export const RESTRICTED_KEY = 'svc_test_RrRrRrRrRrRrRrRrRrRrRrRrRrRrRrRr';

export function protoPayment(overrides: Partial<payments.Payment> = {}): payments.Payment {
  return {
    id: 'pay_01jabc',
    mode: common.Mode.MODE_TEST,
    method: 'pix',
    status: 'pending',
    amount: 1990,
    amount_refunded: 0,
    currency: 'BRL',
    fee: 20,
    net: 1970,
    provider: 'efi',
    provider_account_id: 'pa_01jxyz',
    provider_payment_id: 'txid123',
    next_action: {
      type: 'pix_qr',
      qr_code: '00020101021226830014br.gov.bcb.pix',
      qr_code_url: 'http://localhost:8080/qr/pay_01jabc.png',
    },
    metadata: { order_id: '42' },
    failure_reason: '',
    failure_code: '',
    end_to_end_id: '',
    payment_url: 'http://pay.localhost/pay_01jabc',
    expires_at: '2026-10-01T12:30:00.000Z',
    tracking: { utm_source: 'facebook' },
    created_at: '2026-10-01T12:00:00.000Z',
    description: '',
    customer: {
      name: 'Maria da Silva',
      email: 'maria@exemplo.com.br',
      ip: '10.0.0.1',
    },
    source_key_id: 'key_01j',
    customer_id: '',
    subscription_id: '',
    splits: [],
    cycle: 0,
    due_date: '',
    attempts: [],
    events: [],
    refunds: [],
    updated_at: '2026-10-01T12:00:01.000Z',
    ...overrides,
  };
}

export function protoRefund(overrides: Partial<payments.Refund> = {}): payments.Refund {
  return {
    id: 're_01jref',
    payment_id: 'pay_01jabc',
    amount: 500,
    status: 'pending',
    reason: '',
    source: 'service',
    provider_refund_id: 're01jref',
    failure_code: '',
    failure_reason: '',
    created_at: '2026-10-01T12:10:00.000Z',
    updated_at: '2026-10-01T12:10:00.000Z',
    ...overrides,
  };
}

export function protoAccount(overrides: Partial<providers.ProviderAccount> = {}): providers.ProviderAccount {
  return {
    id: 'pa_01jxyz',
    merchant_id: 'acct_1',
    mode: common.Mode.MODE_TEST,
    provider: 'efi',
    name: 'Efí sandbox',
    priority: 10,
    enabled: true,
    methods: ['pix'],
    requires: ['pix:document'],
    fees: [{ method: 'pix', percent_bps: 99, fixed: 0 }],
    credentials_last4: { client_id: 'c123', client_secret: 'x789' },
    breaker_state: 'closed',
    created_at: '2026-10-01T12:00:00.000Z',
    updated_at: '2026-10-01T12:00:01.000Z',
    webhook_url: 'http://localhost:8080/webhooks/providers/pa_01jxyz?hmac=secret',
    webhook_manual_setup: false,
    keeps_metadata: true,
    hosted_checkout: [],
    vault_cards: false,
    vault_cards_need_cvc: false,
    ...overrides,
  };
}

export function protoRule(overrides: Partial<routing.RoutingRule> = {}): routing.RoutingRule {
  return {
    id: 'rr_01jrule',
    mode: common.Mode.MODE_TEST,
    name: 'Cursos pela Efí',
    priority: 1,
    enabled: true,
    conditions: { methods: ['pix'], amount_min: 0, amount_max: 50_000, metadata: [{ key: 'product', value: 'curso' }], customer_has: [] },
    target: { type: 'accounts', accounts: ['pa_01jxyz'], weights: [], fallback: true },
    created_at: '2026-10-01T12:00:00.000Z',
    updated_at: '2026-10-01T12:00:00.000Z',
    ...overrides,
  };
}

export type { GatewayDeps };

export function protoSubscription(overrides: Partial<subscriptions.Subscription> = {}): subscriptions.Subscription {
  return {
    id: 'sub_01jsub',
    mode: common.Mode.MODE_TEST,
    status: 'pending',
    amount: 2990,
    first_amount: 2990,
    frequency: 'monthly',
    start_date: '2026-12-01',
    next_charge_date: '2027-01-04',
    description: 'Plano mensal',
    retry: true,
    provider: 'efi',
    provider_account_id: 'pa_01jxyz',
    approval: { qr_code: '00020101021226830014br.gov.bcb.pix.rec', qr_code_base64: 'iVBORw0KGgo=' },
    customer: { id: 'cus_01jcus', name: 'Maria da Silva', document: '52998224725' },
    metadata: { plan: 'pro' },
    tracking: { utm_source: 'facebook' },
    payments: [],
    source_key_id: 'key_full',
    created_at: '2026-12-01T12:00:00.000Z',
    updated_at: '2026-12-01T12:00:00.000Z',
    ...overrides,
  };
}

export function protoPayout(overrides: Partial<payouts.Payout> = {}): payouts.Payout {
  return {
    id: 'po_01jpo',
    mode: common.Mode.MODE_TEST,
    status: 'processing',
    amount: 15000,
    provider: 'asaas',
    provider_account_id: 'pa_01jxyz',
    provider_transfer_id: 'tr_123',
    destination: { type: 'pix_key', destination_id: 'pdest_01jdst', key_type: 'email', key: 'fi********@loja.com.br', label: 'Conta da empresa' },
    uncertain: false,
    description: 'Retirada semanal',
    metadata: { week: '48' },
    created_at: '2026-12-01T12:00:00.000Z',
    updated_at: '2026-12-01T12:00:01.000Z',
    subaccount_id: '',
    source_key_id: 'key_full',
    whole_balance: false,
    ...overrides,
  };
}

export function protoSubaccount(overrides: Partial<payouts.Subaccount> = {}): payouts.Subaccount {
  return {
    id: 'sub_01jsub',
    mode: common.Mode.MODE_TEST,
    status: 'pending',
    status_detail: 'Cadastro em análise no provedor.',
    provider: 'pagarme',
    provider_account_id: 'pa_01jxyz',
    provider_subaccount_id: 're_cm1x2y3z',
    type: 'individual',
    name: 'Ana Souza',
    document: '52998224725',
    email: 'ana@loja.com.br',
    details: { bank_account: '341 0001 ****56-7' },
    metadata: { seller: '42' },
    created_at: '2026-12-01T12:00:00.000Z',
    updated_at: '2026-12-01T12:00:01.000Z',
    source_key_id: 'key_full',
    ...overrides,
  };
}
