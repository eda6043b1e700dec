/**
 * What Orquestra knows about each provider: the facts an owner and routing need (credential
 * fields, base URLs of its sandbox and production, the customer data each method requires,
 * whether it keeps metadata) next to what its adapter implements (the methods it takes and its
 * capabilities, derived from the adapter class by adapters/adapter-capabilities.ts, never written
 * by hand). GET /v1/providers is served from here.
 * Facts and their sources: ../shared/providers/psp-apis.md and each adapter's README/fixtures.
 */
import { capabilitiesOf, type AdapterClass, type AdapterCapabilities } from '../adapters/adapter-capabilities';
import { AsaasAdapter } from '../adapters/asaas/asaas.adapter';
import { EfiAdapter } from '../adapters/efi/efi.adapter';
import { MercadoPagoAdapter } from '../adapters/mercadopago/mercadopago.adapter';
import { PagarmeAdapter } from '../adapters/pagarme/pagarme.adapter';
import { StripeAdapter } from '../adapters/stripe/stripe.adapter';
import { WooviAdapter } from '../adapters/woovi/woovi.adapter';

export type Method = 'pix' | 'boleto' | 'card';
export type CustomerField = 'document' | 'email' | 'phone' | 'address';

export interface CredentialField {
  name: string;
  label: string;
  secret: boolean;
}

export interface ProviderDefinition {
  code: string;
  name: string;
  credentialFields: CredentialField[];
  baseUrls: { test: string; live: string };
  /** Methods Orquestra routes to this provider today: those its adapter's createCharge takes. */
  methods: Method[];
  /** Customer data required per method. */
  customerRequires: Partial<Record<Method, CustomerField[]>>;
  /**
   * Methods whose details the provider collects on its own hosted page (a card payment without
   * `card.token` is answered with `next_action.type = redirect` to it). Routing sends token-less
   * card payments only to these providers.
   */
  hostedCheckout: Method[];
  amountUnit: 'reais_string' | 'reais_decimal' | 'cents';
  capabilities: Omit<AdapterCapabilities, 'methods'> & {
    /** A fact about the provider's API: it stores our metadata on the charge. */
    keepsMetadata: boolean;
  };
  notes: string;
}

/** The hand-kept facts of a provider; what its adapter implements is added by describe(). */
type ProviderFacts = Omit<ProviderDefinition, 'methods' | 'capabilities'> & { keepsMetadata: boolean };

function describe(adapter: AdapterClass, facts: ProviderFacts): ProviderDefinition {
  const { methods, ...capabilities } = capabilitiesOf(adapter);
  const { keepsMetadata, ...rest } = facts;
  return { ...rest, methods, capabilities: { ...capabilities, keepsMetadata } };
}

export const PROVIDER_CATALOG: Record<string, ProviderDefinition> = {
  efi: describe(EfiAdapter, {
    code: 'efi',
    name: 'Efí (API Pix do Banco Central)',
    credentialFields: [
      { name: 'client_id', label: 'Client ID', secret: false },
      { name: 'client_secret', label: 'Client Secret', secret: true },
      { name: 'certificate', label: 'Certificado (PEM com certificado e chave privada)', secret: true },
      { name: 'pix_key', label: 'Chave Pix da conta', secret: false },
    ],
    baseUrls: { test: 'https://pix-h.api.efipay.com.br', live: 'https://pix.api.efipay.com.br' },
    // The BCB API accepts an immediate charge without a debtor; name + CPF/CNPJ are sent when given.
    // Boleto (API Cobranças banking_billet): name with CPF (or a company with CNPJ) and the address the bank prints.
    customerRequires: { pix: [], boleto: ['document', 'address'] },
    hostedCheckout: [],
    amountUnit: 'reais_string',
    keepsMetadata: true,
    notes: 'OAuth2 com mTLS (certificado da conta). Valores em reais como texto ("19.90"). Metadata vai em infoAdicionais. Boleto pela API Cobranças (centavos; as mesmas credenciais com o escopo de Cobranças). Sem cartão: o payment_token da Efí só é gerado pelo script dela no navegador.',
  }),
  mercadopago: describe(MercadoPagoAdapter, {
    code: 'mercadopago',
    name: 'Mercado Pago',
    credentialFields: [
      { name: 'access_token', label: 'Access Token', secret: true },
      { name: 'webhook_secret', label: 'Assinatura secreta dos webhooks', secret: true },
    ],
    baseUrls: { test: 'https://api.mercadopago.com', live: 'https://api.mercadopago.com' },
    // Every payment needs payer.email; a boleto (bolbradesco) also the CPF/CNPJ and full address;
    // a card the document as the spec asks of every card payment (sent as payer and holder identification).
    customerRequires: { pix: ['email'], boleto: ['document', 'address', 'email'], card: ['document', 'email'] },
    hostedCheckout: [],
    amountUnit: 'reais_decimal',
    keepsMetadata: true,
    notes: 'Valores em reais decimais. Exige e-mail do pagador em todo pagamento; boleto (bolbradesco) exige CPF/CNPJ e endereço. Cartões do cofre só com o código de segurança (card_tokens). Webhooks assinados (x-signature, HMAC-SHA256). Para receber chargebacks, ative o evento Chargebacks em Webhooks no painel do Mercado Pago, com a URL de webhook desta conta.',
  }),
  asaas: describe(AsaasAdapter, {
    code: 'asaas',
    name: 'Asaas',
    credentialFields: [{ name: 'api_key', label: 'Chave de API ($aact_…)', secret: true }],
    baseUrls: { test: 'https://api-sandbox.asaas.com/v3', live: 'https://api.asaas.com/v3' },
    // Pix: a customer record needs the CPF/CNPJ. Card: the charge is created without card data
    // (billingType CREDIT_CARD) and the buyer types the card on Asaas's invoice page (invoiceUrl);
    // Asaas refuses a card charge whose customer has no CPF/CNPJ. Boleto (billingType BOLETO): the
    // same customer record; the facts (psp-apis.md) name no address for it, so none is required.
    customerRequires: { pix: ['document'], boleto: ['document'], card: ['document'] },
    hostedCheckout: ['card'],
    amountUnit: 'reais_decimal',
    keepsMetadata: false,
    notes: 'Valores em reais decimais. Exige cliente com CPF/CNPJ. Boleto com linha digitável e PDF do Asaas (bankSlipUrl), vencimento no prazo de boleto da plataforma. Cartão pelo checkout hospedado do Asaas (fatura com formulário de cartão), sem card.token. Não guarda metadata (só externalReference): ela fica só no Orquestra.',
  }),
  pagarme: describe(PagarmeAdapter, {
    code: 'pagarme',
    name: 'Pagar.me',
    credentialFields: [{ name: 'secret_key', label: 'Chave secreta (sk_test_… ou sk_…)', secret: true }],
    baseUrls: { test: 'https://api.pagar.me/core/v5', live: 'https://api.pagar.me/core/v5' },
    // Every order needs the full customer; a boleto also the address the bank prints. Card: vault cards (pagarme.vault-card.ts).
    customerRequires: { pix: ['document', 'email', 'phone'], boleto: ['document', 'email', 'phone', 'address'], card: ['document', 'email', 'phone'] },
    hostedCheckout: [],
    amountUnit: 'cents',
    keepsMetadata: true,
    notes: 'Valores em centavos. Exige nome, e-mail, documento e telefone do cliente. Webhooks configurados no painel (cole a URL mostrada na conta; inclua charge.refunded e charge.partial_canceled). Reembolso parcial ou total de Pix pela API; boleto pago só pelo painel (o Pagar.me pede a conta bancária do pagador). Cartão só do cofre (card.id ou o card.token do formulário da plataforma), com o código de segurança.',
  }),
  woovi: describe(WooviAdapter, {
    code: 'woovi',
    name: 'Woovi (OpenPix)',
    credentialFields: [{ name: 'app_id', label: 'AppID', secret: true }],
    baseUrls: { test: 'https://api.woovi-sandbox.com', live: 'https://api.woovi.com' },
    customerRequires: { pix: [] },
    hostedCheckout: [],
    amountUnit: 'cents',
    keepsMetadata: true,
    notes: 'Valores em centavos. Só Pix. Webhooks assinados com RSA (x-webhook-signature).',
  }),
  stripe: describe(StripeAdapter, {
    code: 'stripe',
    name: 'Stripe',
    credentialFields: [{ name: 'secret_key', label: 'Chave secreta (sk_test_… ou sk_live_…)', secret: true }],
    baseUrls: { test: 'https://api.stripe.com', live: 'https://api.stripe.com' },
    // Boleto: Stripe requires the payer's CPF/CNPJ (tax_id), name, e-mail and address. Card: the
    // spec asks for the document on every card payment.
    customerRequires: { pix: [], boleto: ['document', 'address', 'email'], card: ['document'] },
    hostedCheckout: [],
    amountUnit: 'cents',
    keepsMetadata: true,
    notes: 'Valores em centavos. Webhooks assinados (Stripe-Signature, HMAC-SHA256, tolerância de 300 s). Reembolso parcial ou total de cartão, Pix e boleto; o de boleto fica pendente até o pagador informar os dados bancários no e-mail da Stripe.',
  }),
};

export function providerDefinition(code: string): ProviderDefinition | undefined {
  return PROVIDER_CATALOG[code];
}

/** "<method>:<field>" entries, as routing reads them. */
export function requiresList(definition: ProviderDefinition): string[] {
  return Object.entries(definition.customerRequires).flatMap(([method, fields]) => (fields ?? []).map((field) => `${method}:${field}`));
}
