/**
 * What the invoice page does with a typed card. Numbers decide, like the other emulators' test
 * tokens: a few fixed numbers decline, every other well-formed card is approved. Declines are what
 * Asaas reports by webhook (docs.asaas.com "Eventos para cobranças"): the issuer's refusal
 * (`PAYMENT_CREDIT_CARD_CAPTURE_REFUSED`) or Asaas's risk analysis (`PAYMENT_REPROVED_BY_RISK_ANALYSIS`).
 */
import { luhnValid } from '../../kit';

export type DeclineEvent = 'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED' | 'PAYMENT_REPROVED_BY_RISK_ANALYSIS';

export type CardOutcome =
  | { kind: 'approved'; last4: string; brand: string }
  | { kind: 'declined'; event: DeclineEvent; message: string }
  | { kind: 'invalid'; field: 'number' | 'holder' | 'expiry' | 'cvv'; message: string };

/** Test cards (documented in the emulator README). */
export const TEST_CARDS = {
  approved: ['4111111111111111', '5162306219378829', '5555555555554444'],
  refused: '4000000000000002',
  /** The numbers Asaas's sandbox documents as refused (Mastercard, Visa). */
  sandboxRefused: ['5184019740373151', '4916561358240741'],
  insufficientFunds: '4000000000009995',
  /** Refused by the issuer as expired (the printed expiry is still in the future). */
  expired: '4000000000000069',
  riskReproved: '4100000000000019',
} as const;

const DECLINES: Readonly<Record<string, { event: DeclineEvent; message: string }>> = {
  [TEST_CARDS.refused]: { event: 'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED', message: 'Transação não autorizada pelo banco emissor.' },
  [TEST_CARDS.insufficientFunds]: { event: 'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED', message: 'Transação não autorizada: saldo ou limite insuficiente.' },
  [TEST_CARDS.riskReproved]: { event: 'PAYMENT_REPROVED_BY_RISK_ANALYSIS', message: 'Pagamento reprovado pela análise de risco.' },
  [TEST_CARDS.expired]: { event: 'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED', message: 'Transação não autorizada: cartão vencido.' },
  ...Object.fromEntries(
    TEST_CARDS.sandboxRefused.map((number) => [number, { event: 'PAYMENT_CREDIT_CARD_CAPTURE_REFUSED' as const, message: 'Transação não autorizada. Verifique os dados do cartão de crédito e tente novamente.' }]),
  ),
};

/** What the issuer does with a well-formed card: its decline, or undefined for an approval. */
export function declineOf(digits: string): { event: DeclineEvent; message: string } | undefined {
  return DECLINES[digits];
}

export function brandOf(digits: string): string {
  if (digits.startsWith('4')) return 'VISA';
  if (/^(5[1-5]|2[2-7])/.test(digits)) return 'MASTERCARD';
  if (/^3[47]/.test(digits)) return 'AMEX';
  if (/^(4011|4312|4389|4514|4576|5041|5066|5067|509|6277|6362|6363|650|6516|6550)/.test(digits)) return 'ELO';
  return 'UNKNOWN';
}

/** `MM/AA` or `MM/AAAA`, not in the past (São Paulo month is close enough for a sandbox). */
function expiryValid(text: string, now: Date): boolean {
  const match = /^(\d{2})\s*\/\s*(\d{2}|\d{4})$/.exec(text.trim());
  if (!match) return false;
  const month = Number(match[1]);
  const yearText = match[2] ?? '';
  const year = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (month < 1 || month > 12) return false;
  return year * 12 + month >= now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

export function judgeCard(form: { number?: string; holder?: string; expiry?: string; cvv?: string }, now: Date): CardOutcome {
  const digits = (form.number ?? '').replace(/[\s.-]/g, '');
  if (!/^\d{13,19}$/.test(digits) || !luhnValid(digits)) return { kind: 'invalid', field: 'number', message: 'Número do cartão inválido.' };
  if (!(form.holder ?? '').trim()) return { kind: 'invalid', field: 'holder', message: 'Informe o nome impresso no cartão.' };
  if (!expiryValid(form.expiry ?? '', now)) return { kind: 'invalid', field: 'expiry', message: 'Validade inválida (use MM/AA).' };
  if (!/^\d{3,4}$/.test((form.cvv ?? '').trim())) return { kind: 'invalid', field: 'cvv', message: 'CVV inválido.' };
  const decline = DECLINES[digits];
  if (decline) return { kind: 'declined', ...decline };
  return { kind: 'approved', last4: digits.slice(-4), brand: brandOf(digits) };
}
