/**
 * `POST /orders` body checks, answered the way Pagar.me v5 does: 422 with `errors` keyed by the
 * field path (`order.customer.name`) and the request echoed (card number and cvv masked). Pix,
 * boleto and credit card orders with one payment are emulated. Messages follow the documented "The name field is required." pattern; the others are
 * the emulator's wording (Pagar.me's exact texts are not documented).
 */
import { z } from 'zod';
import { pagarmeErrors } from './pagarme-errors';
import { splitProblems, splitRuleSchema, type RecipientResolver } from './split-rules';
import { cardProblems, creditCardSchema, maskCardFields, type CreditCardRequest } from './card-payments';

const digits = (min: number, max: number) => z.string().regex(new RegExp(`^\\d{${min},${max}}$`));

const phoneSchema = z.object({ country_code: digits(1, 3), area_code: digits(2, 2), number: digits(8, 9) });

const customerSchema = z.object({
  name: z.string().trim().min(1).max(64),
  email: z.string().max(64).regex(/^[^\s@]+@[^\s@]+\.[^\s@]+$/).optional(),
  document: z.string().regex(/^\d{11}$|^\d{14}$/).optional(),
  document_type: z.enum(['CPF', 'CNPJ', 'PASSPORT']).optional(),
  type: z.enum(['individual', 'company']).optional(),
  code: z.string().max(52).optional(),
  phones: z.object({ mobile_phone: phoneSchema.optional(), home_phone: phoneSchema.optional() }).optional(),
  address: z
    .object({
      line_1: z.string().trim().min(1).max(256),
      line_2: z.string().max(128).optional(),
      zip_code: digits(8, 8),
      city: z.string().trim().min(1).max(64),
      state: z.string().regex(/^[A-Z]{2}$/),
      country: z.literal('BR'),
    })
    .optional(),
  metadata: z.record(z.string()).optional(),
});

/** `payments[].boleto` (docs.pagar.me "Boleto"): due date and printed instructions. */
const boletoSchema = z.object({
  due_at: z.string().datetime({ offset: true }).optional(),
  instructions: z.string().max(256).optional(),
  document_number: z.string().max(16).optional(),
  type: z.enum(['DM', 'BDP']).optional(),
});

const pixSchema = z.object({
  expires_in: z.number().int().min(1).max(315_360_000).optional(),
  expires_at: z.string().datetime({ offset: true }).optional(),
  additional_information: z.array(z.object({ name: z.string().min(1).max(50), value: z.string().min(1).max(200) })).max(50).optional(),
});

/** The emulator's cap on split rules per payment (Pagar.me documents none). */
const MAX_SPLIT_RULES = 50;

export const createOrderSchema = z.object({
  code: z.string().max(52).optional(),
  items: z
    .array(
      z.object({
        amount: z.number().int().min(0),
        description: z.string().trim().min(1).max(256),
        quantity: z.number().int().min(1),
        code: z.string().max(52).optional(),
        category: z.string().optional(),
      }),
    )
    .min(1),
  customer: customerSchema.optional(),
  customer_id: z.string().optional(),
  payments: z
    .array(
      z.object({
        payment_method: z.enum(['pix', 'boleto', 'credit_card']),
        amount: z.number().int().min(1).optional(),
        pix: pixSchema.optional(),
        boleto: boletoSchema.optional(),
        // A card (card-payments.ts), authorized when the order is created.
        credit_card: creditCardSchema.optional(),
        // Split rules (split-rules.ts); checked against the account's recipients below.
        split: z.array(splitRuleSchema).min(1).max(MAX_SPLIT_RULES).optional(),
      }),
    )
    .length(1),
  metadata: z.record(z.string()).optional(),
  closed: z.boolean().optional(),
  ip: z.string().optional(),
  session_id: z.string().optional(),
});

export type CreateOrderRequest = z.infer<typeof createOrderSchema>;
export type CustomerRequest = z.infer<typeof customerSchema>;
export type PhoneRequest = z.infer<typeof phoneSchema>;

/** `['items', 0, 'amount']` → `order.items[0].amount`. */
function fieldPath(path: (string | number)[]): string {
  return path.reduce<string>((acc, part) => (typeof part === 'number' ? `${acc}[${part}]` : `${acc}.${part}`), 'order');
}

function messageFor(issue: z.ZodIssue): string {
  const field = String(issue.path[issue.path.length - 1] ?? 'order');
  if (issue.code === 'invalid_type' && issue.received === 'undefined') return `The ${field} field is required.`;
  if (issue.code === 'invalid_enum_value' && field === 'payment_method') return 'The payment_method is not supported by the emulator (pix, boleto and credit_card only).';
  if (issue.code === 'too_small' && issue.type === 'array') return `The ${field} field must have at least ${String(issue.minimum)} item(s).`;
  if (issue.code === 'too_big' && field === 'payments') return 'The emulator supports orders with exactly one payment.';
  return `The ${field} field is invalid.`;
}

function add(errors: Record<string, string[]>, key: string, message: string): void {
  (errors[key] ??= []).push(message);
}

function cpfCnpjValid(document: string): boolean {
  const d = [...document].map(Number);
  if (new Set(d).size === 1) return false;
  const check = (slice: number[], weights: number[]) => {
    const rest = slice.reduce((sum, digit, i) => sum + digit * (weights[i] ?? 0), 0) % 11;
    return rest < 2 ? 0 : 11 - rest;
  };
  if (d.length === 11) {
    return check(d.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]) === d[9] && check(d.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]) === d[10];
  }
  const w1 = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];
  return check(d.slice(0, 12), w1) === d[12] && check(d.slice(0, 13), [6, ...w1]) === d[13];
}

/** A credit_card payment: one of `card` (checked field by field) or `card_id` (looked up when the order is made). */
function creditCardProblems(creditCard: CreditCardRequest | undefined, now: Date): Record<string, string> {
  const at = 'order.payments[0].credit_card';
  if (!creditCard) return { [at]: 'The credit_card field is required.' };
  if (creditCard.card_token !== undefined) return { [`${at}.card_token`]: 'The emulator does not issue card tokens: send card or card_id.' };
  if (creditCard.card && creditCard.card_id) return { [at]: 'Send either card or card_id.' };
  if (creditCard.card_id) return {};
  if (!creditCard.card) return { [`${at}.card`]: 'The card field is required.' };
  return cardProblems(creditCard.card, now);
}

/** The parsed order, or a thrown 422 listing every problem (as Pagar.me lists them all at once). */
export function parseCreateOrder(body: unknown, now: Date, recipients: RecipientResolver = () => undefined): CreateOrderRequest {
  const parsed = createOrderSchema.safeParse(body);
  const errors: Record<string, string[]> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) add(errors, fieldPath(issue.path), messageFor(issue));
    throw pagarmeErrors.invalid(errors, maskCardFields(body));
  }
  const order = parsed.data;
  const customer = order.customer;
  if (!customer && !order.customer_id) add(errors, 'order.customer', 'The customer field is required.');
  // Pix needs the payer fully identified: Pagar.me refuses Pix orders without these.
  if (customer) {
    if (!customer.email) add(errors, 'order.customer.email', 'The email field is required.');
    if (!customer.document) add(errors, 'order.customer.document', 'The document field is required.');
    else if (!cpfCnpjValid(customer.document)) add(errors, 'order.customer.document', 'The document field is invalid.');
    if (!customer.type) add(errors, 'order.customer.type', 'The type field is required.');
    else if (customer.document && (customer.type === 'individual') !== (customer.document.length === 11)) {
      add(errors, 'order.customer.document', 'The document does not match the customer type.');
    }
    if (!customer.phones?.mobile_phone && !customer.phones?.home_phone) add(errors, 'order.customer.phones', 'At least one customer phone is required.');
  }
  const total = order.items.reduce((sum, item) => sum + item.amount * item.quantity, 0);
  if (total <= 0) add(errors, 'order.items', 'The order amount must be greater than zero.');
  const payment = order.payments[0];
  if (payment?.amount !== undefined && payment.amount !== total) add(errors, 'order.payments[0].amount', 'The payment amount must match the order amount.');
  // A boleto is printed with the payer's address: Pagar.me refuses boleto orders without it.
  if (payment?.payment_method === 'boleto' && customer && !customer.address) add(errors, 'order.customer.address', 'The address field is required.');
  const dueAt = payment?.boleto?.due_at;
  if (dueAt && Date.parse(dueAt) <= now.getTime()) add(errors, 'order.payments[0].boleto.due_at', 'The due_at field must be in the future.');
  const expiresAt = payment?.pix?.expires_at;
  if (expiresAt && Date.parse(expiresAt) <= now.getTime()) add(errors, 'order.payments[0].pix.expires_at', 'The expires_at field must be in the future.');
  if (payment?.split) for (const [key, messages] of Object.entries(splitProblems(payment.split, total, recipients))) for (const message of messages) add(errors, key, message);
  if (payment?.payment_method === 'credit_card') for (const [key, message] of Object.entries(creditCardProblems(payment.credit_card, now))) add(errors, key, message);
  if (Object.keys(errors).length > 0) throw pagarmeErrors.invalid(errors, maskCardFields(body));
  return order;
}
