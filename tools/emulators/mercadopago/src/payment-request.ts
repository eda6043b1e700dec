/**
 * `POST /v1/payments` body checks for Pix, boleto (`bolbradesco`) and card (a `card_tokens` token
 * with the brand as `payment_method_id`), answered with Mercado Pago's errors. Fields the emulator
 * does not use (additional_info, statement_descriptor, issuer_id, …) are accepted and ignored.
 */
import { z } from 'zod';
import { parseMpDate, reaisToCents } from './mp-format';
import { mpErrors } from './mp-errors';

/** Pix `date_of_expiration` must fall between 30 minutes and 30 days from now (Pix integration guide). */
export const PIX_EXPIRY_MIN_MS = 30 * 60 * 1000;
export const PIX_EXPIRY_MAX_MS = 30 * 24 * 60 * 60 * 1000;
/** Without `date_of_expiration` a Pix payment expires after 24 hours. */
export const PIX_EXPIRY_DEFAULT_MS = 24 * 60 * 60 * 1000;

const identificationSchema = z.object({ type: z.string().min(1), number: z.string().min(1) });

const addressSchema = z.object({
  zip_code: z.string().min(1),
  street_name: z.string().min(1),
  street_number: z.string().min(1),
  neighborhood: z.string().min(1),
  city: z.string().min(1),
  federal_unit: z.string().length(2),
});

/** The credit card `payment_method_id`s the emulator takes (Brazil), by brand. */
export const CARD_METHOD_IDS = ['visa', 'master', 'amex', 'elo', 'hipercard', 'diners'] as const;
/** A boleto falls due three days ahead by default (Mercado Pago's documented default). */
export const BOLETO_EXPIRY_DEFAULT_MS = 3 * 24 * 60 * 60 * 1000;
export const BOLETO_EXPIRY_MAX_MS = 30 * 24 * 60 * 60 * 1000;

const bodySchema = z
  .object({
    transaction_amount: z.unknown(),
    payment_method_id: z.string(),
    payer: z.object({
      email: z.string().email(),
      first_name: z.string().max(256).optional(),
      last_name: z.string().max(256).optional(),
      identification: identificationSchema.optional(),
      address: z.unknown().optional(),
    }),
    token: z.string().optional(),
    installments: z.number().int().optional(),
    description: z.string().max(600).optional(),
    date_of_expiration: z.string().optional(),
    notification_url: z.string().max(500).optional(),
    external_reference: z.string().max(256).optional(),
    metadata: z.record(z.unknown()).optional(),
  })
  .passthrough();

export type PaymentKind = 'pix' | 'boleto' | 'card';

export interface PayerAddress {
  zip_code: string;
  street_name: string;
  street_number: string;
  neighborhood: string;
  city: string;
  federal_unit: string;
}

export interface PixPaymentRequest {
  /** Absent in payments stored before boleto and card existed: Pix. */
  kind?: PaymentKind;
  /** `pix`, `bolbradesco` or a card brand (`visa`, `master`, …). */
  paymentMethodId?: string;
  amountCents: number;
  payer: { email: string; first_name?: string; last_name?: string; identification?: { type: string; number: string }; address?: PayerAddress };
  /** Card: the `card_tokens` id and the installments. */
  token?: string;
  installments?: number;
  description?: string;
  expiresAt: Date;
  notificationUrl?: string;
  externalReference?: string;
  metadata: Record<string, unknown>;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** The request as the emulator stores it; throws the MpApiError Mercado Pago would answer. */
export function parsePixPaymentRequest(body: unknown, now: Date): PixPaymentRequest {
  const parsed = bodySchema.safeParse(body);
  if (!parsed.success) {
    const field = parsed.error.issues[0]?.path.join('.') ?? '';
    if (field.startsWith('payer')) throw mpErrors.invalidPayerEmail();
    if (field === 'payment_method_id') throw mpErrors.badRequest('payment_method_id attribute can\'t be null');
    throw mpErrors.badRequest(`Invalid ${field || 'body'}`);
  }
  const request = parsed.data;
  const methodId = request.payment_method_id;
  const kind: PaymentKind | undefined =
    methodId === 'pix' ? 'pix' : methodId === 'bolbradesco' ? 'boleto' : (CARD_METHOD_IDS as readonly string[]).includes(methodId) ? 'card' : undefined;
  if (!kind) throw mpErrors.badRequest(`payment_method_id ${methodId} is not supported by the emulator (pix, bolbradesco, ${CARD_METHOD_IDS.join(', ')})`);
  const amountCents = reaisToCents(request.transaction_amount);
  if (amountCents === undefined) throw mpErrors.invalidAmount();
  if (request.notification_url !== undefined && !isHttpUrl(request.notification_url)) throw mpErrors.invalidNotificationUrl();

  let address: PayerAddress | undefined;
  if (kind === 'boleto') {
    // Documented: a boleto needs the payer's identification and full address.
    if (!request.payer.identification) throw mpErrors.payerIdentificationRequired();
    const parsedAddress = addressSchema.safeParse(request.payer.address);
    if (!parsedAddress.success) throw mpErrors.payerAddressRequired(parsedAddress.error.issues[0]?.path.join('.') ?? 'address');
    address = parsedAddress.data;
  }
  if (kind === 'card') {
    if (!request.token) throw mpErrors.cardTokenRequired();
    if (request.installments !== undefined && (request.installments < 1 || request.installments > 12)) throw mpErrors.badRequest('Invalid installments');
  }

  const defaultMs = kind === 'boleto' ? BOLETO_EXPIRY_DEFAULT_MS : PIX_EXPIRY_DEFAULT_MS;
  let expiresAt = new Date(now.getTime() + defaultMs);
  if (request.date_of_expiration !== undefined && kind !== 'card') {
    const date = parseMpDate(request.date_of_expiration);
    if (!date) throw mpErrors.badRequest('Invalid date_of_expiration');
    const ahead = date.getTime() - now.getTime();
    if (kind === 'pix' && (ahead < PIX_EXPIRY_MIN_MS || ahead > PIX_EXPIRY_MAX_MS)) {
      throw mpErrors.badRequest('date_of_expiration must be between 30 minutes and 30 days from now');
    }
    if (kind === 'boleto' && (ahead <= 0 || ahead > BOLETO_EXPIRY_MAX_MS)) throw mpErrors.badRequest('date_of_expiration must be in the next 30 days');
    expiresAt = date;
  }
  return {
    kind,
    paymentMethodId: methodId,
    amountCents,
    payer: { ...request.payer, address } as PixPaymentRequest['payer'],
    ...(kind === 'card' ? { token: request.token, installments: request.installments ?? 1 } : {}),
    ...(request.description !== undefined ? { description: request.description } : {}),
    expiresAt,
    ...(request.notification_url !== undefined ? { notificationUrl: request.notification_url } : {}),
    ...(request.external_reference !== undefined ? { externalReference: request.external_reference } : {}),
    metadata: request.metadata ?? {},
  };
}
