/**
 * `POST /v1/payments` body checks for Pix, answered with Mercado Pago's errors. Fields the
 * emulator does not use (additional_info, statement_descriptor, …) are accepted and ignored.
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

const bodySchema = z
  .object({
    transaction_amount: z.unknown(),
    payment_method_id: z.string(),
    payer: z.object({
      email: z.string().email(),
      first_name: z.string().max(256).optional(),
      last_name: z.string().max(256).optional(),
      identification: identificationSchema.optional(),
    }),
    description: z.string().max(600).optional(),
    date_of_expiration: z.string().optional(),
    notification_url: z.string().max(500).optional(),
    external_reference: z.string().max(256).optional(),
    metadata: z.record(z.unknown()).optional(),
  })
  .passthrough();

export interface PixPaymentRequest {
  amountCents: number;
  payer: { email: string; first_name?: string; last_name?: string; identification?: { type: string; number: string } };
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
  if (request.payment_method_id !== 'pix') {
    throw mpErrors.badRequest(`payment_method_id ${request.payment_method_id} is not supported by the emulator (only pix)`);
  }
  const amountCents = reaisToCents(request.transaction_amount);
  if (amountCents === undefined) throw mpErrors.invalidAmount();
  if (request.notification_url !== undefined && !isHttpUrl(request.notification_url)) throw mpErrors.invalidNotificationUrl();

  let expiresAt = new Date(now.getTime() + PIX_EXPIRY_DEFAULT_MS);
  if (request.date_of_expiration !== undefined) {
    const date = parseMpDate(request.date_of_expiration);
    if (!date) throw mpErrors.badRequest('Invalid date_of_expiration');
    const ahead = date.getTime() - now.getTime();
    if (ahead < PIX_EXPIRY_MIN_MS || ahead > PIX_EXPIRY_MAX_MS) {
      throw mpErrors.badRequest('date_of_expiration must be between 30 minutes and 30 days from now');
    }
    expiresAt = date;
  }
  return {
    amountCents,
    payer: request.payer,
    ...(request.description !== undefined ? { description: request.description } : {}),
    expiresAt,
    ...(request.notification_url !== undefined ? { notificationUrl: request.notification_url } : {}),
    ...(request.external_reference !== undefined ? { externalReference: request.external_reference } : {}),
    metadata: request.metadata ?? {},
  };
}
