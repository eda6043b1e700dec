/**
 * What Orquestra knows about each provider: the credential fields an owner enters, the methods it
 * takes, and the customer data each method requires. GET /v1/providers is served from here.
 */
export interface CredentialField {
  name: string;
  label: string;
  secret: boolean;
}

export interface ProviderDefinition {
  code: string;
  name: string;
  credentialFields: CredentialField[];
  methods: Array<'pix' | 'boleto' | 'card'>;
  /** Customer data required per method, as "<method>:<field>". */
  requires: string[];
  keepsMetadata: boolean;
}

export const PROVIDER_CATALOG: Record<string, ProviderDefinition> = {
  efi: {
    code: 'efi',
    name: 'Efí (API Pix do Banco Central)',
    credentialFields: [
      { name: 'client_id', label: 'Client ID', secret: false },
      { name: 'client_secret', label: 'Client Secret', secret: true },
      { name: 'certificate', label: 'Certificado (PEM com certificado e chave privada)', secret: true },
      { name: 'pix_key', label: 'Chave Pix da conta', secret: false },
    ],
    methods: ['pix'],
    // The BCB API accepts an immediate charge without a debtor; name+CPF/CNPJ are sent when given.
    requires: [],
    keepsMetadata: true,
  },
};

export function providerDefinition(code: string): ProviderDefinition | undefined {
  return PROVIDER_CATALOG[code];
}
