import type { EmulatorProvider } from './seed';

/** The emulator each method goes to with the developer seed's priorities (seed.ts emulatorAccountPlan). */
const LABELS: Record<EmulatorProvider | 'efi', string> = {
  efi: 'Efí',
  asaas: 'Asaas',
  pagarme: 'Pagar.me',
  mercadopago: 'Mercado Pago',
  stripe: 'Stripe',
  woovi: 'Woovi',
};

/** A buyer every provider accepts: Asaas needs a valid CPF for Pix, boleto and card alike. */
export const SANDBOX_CUSTOMER = { name: 'Maria Silva', email: 'maria@example.com', document: '52998224725' } as const;

/** The Asaas invoice page's approved test card (tools/emulators/asaas/README.md "Invoice page"). */
export const SANDBOX_TEST_CARD = '4111 1111 1111 1111';

/**
 * The part of `npm start`'s banner that shows the sandbox: the test accounts at the six emulators
 * (with each one's control routes) and a Pix, a boleto and a card payment that succeed, as
 * copy-paste shell lines (curl + jq) with the printed base URL and key. Pure: seed.spec.ts checks it.
 */
export function sandboxGuide(input: {
  baseUrl: string;
  testKey: string;
  efiAccountId: string;
  accounts: Array<{ provider: EmulatorProvider; accountId: string; priority: number }>;
  controlUrls: Record<EmulatorProvider | 'efi', string>;
}): string {
  const rows = [
    { provider: 'efi' as const, accountId: input.efiAccountId, priority: 10 },
    ...input.accounts,
  ].map((a) => `    ${LABELS[a.provider].padEnd(13)} ${a.accountId}  priority ${String(a.priority).padEnd(3)} control ${input.controlUrls[a.provider]}/__control/…`);
  const customer = JSON.stringify(SANDBOX_CUSTOMER);
  const pay = (method: string, amount: number) =>
    `  PAY=$(curl -s "$ORQ/v1/payments" -H "Authorization: Bearer $KEY" -H "Idempotency-Key: $(uuidgen 2>/dev/null || date +%s%N)" \\
    -H "Content-Type: application/json" -d '{"method":"${method}","amount":${amount},"customer":${customer}}' | jq -r .id)`;
  const simulate = `  curl -s -X POST "$ORQ/v1/payments/$PAY/simulate" -H "Authorization: Bearer $KEY" | jq -r .status   # succeeded`;
  return `Sandbox accounts (test mode; lower priority first: Pix → Efí, boleto and card → Asaas, the rest fall back):
${rows.join('\n')}
    Control routes (pay, expire, refund, dispute, fail, webhooks): each emulator's README under tools/emulators/<provider>/

Try it (a Pix, a boleto and a card payment, each paid in the sandbox):

  ORQ=${input.baseUrl} KEY=${input.testKey}
  # Pix
${pay('pix', 1990)}
${simulate}
  # Boleto
${pay('boleto', 4990)}
${simulate}
  # Card: pays on the provider's checkout (next_action.url; test card ${SANDBOX_TEST_CARD}, any name, future expiry, CVV 123), or simulate:
${pay('card', 8990)}
${simulate}`;
}
