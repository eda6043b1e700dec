/**
 * The order body as the attribution tool documents it (ad-integrations.md §1): every invalid
 * field is listed (`field`, `message`), as the tool's validation answer does.
 */
export const PAYMENT_METHODS = ['credit_card', 'boleto', 'pix', 'paypal', 'free_price'] as const;
export const ORDER_STATUSES = ['waiting_payment', 'paid', 'refused', 'refunded', 'chargedback'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const TRACKING_KEYS = ['src', 'sck', 'utm_source', 'utm_campaign', 'utm_medium', 'utm_content', 'utm_term'] as const;

/** `YYYY-MM-DD HH:MM:SS`, UTC, a real calendar instant. */
const DATE_FORMAT = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/;

export function parseUtmifyDate(text: string): Date | null {
  const match = DATE_FORMAT.exec(text);
  if (!match) return null;
  const date = new Date(`${text.replace(' ', 'T')}Z`);
  // `2026-02-30 …` parses to March: a real date prints back the same.
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 19).replace('T', ' ') !== text) return null;
  return date;
}

export interface FieldError {
  field: string;
  message: string;
}

export interface Order {
  orderId: string;
  platform: string;
  paymentMethod: (typeof PAYMENT_METHODS)[number];
  status: OrderStatus;
  createdAt: string;
  approvedDate: string | null;
  refundedAt: string | null;
  customer: Record<string, unknown> & { email: string };
  products: unknown[];
  trackingParameters: Record<string, string | null>;
  commission: { totalPriceInCents: number; gatewayFeeInCents: number; userCommissionInCents: number; currency?: string };
  isTest?: boolean;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isCents = (value: unknown) => Number.isInteger(value) && (value as number) >= 0;

/** The fields that are wrong, in body order; empty when the order is valid. */
export function validateOrder(body: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const bad = (field: string, message: string) => errors.push({ field, message });
  if (!isObject(body)) return [{ field: 'body', message: 'must be a JSON object' }];

  const text = (field: string, { nullable = false, optional = false } = {}) => {
    const value = body[field];
    if (value === undefined && optional) return;
    if (value === null && nullable) return;
    if (typeof value !== 'string' || value.trim() === '') bad(field, nullable ? 'must be a non-empty string or null' : 'must be a non-empty string');
  };
  text('orderId');
  text('platform');
  if (typeof body['platform'] === 'string' && body['platform'].trim() !== '' && !/^[A-Z][A-Za-z0-9]*$/.test(body['platform'])) bad('platform', 'must be PascalCase (letters and digits, first one upper case)');
  if (!(PAYMENT_METHODS as readonly unknown[]).includes(body['paymentMethod'])) bad('paymentMethod', `must be one of ${PAYMENT_METHODS.join(', ')}`);
  if (!(ORDER_STATUSES as readonly unknown[]).includes(body['status'])) bad('status', `must be one of ${ORDER_STATUSES.join(', ')}`);

  const date = (field: string, nullable: boolean) => {
    const value = body[field];
    if (value === null && nullable) return;
    if (typeof value !== 'string' || !parseUtmifyDate(value)) bad(field, `must be a UTC date as YYYY-MM-DD HH:MM:SS${nullable ? ' or null' : ''}`);
  };
  date('createdAt', false);
  date('approvedDate', true);
  date('refundedAt', true);
  const status = body['status'];
  if (status === 'paid' && body['approvedDate'] === null) bad('approvedDate', 'is required when status is paid');
  if ((status === 'refunded' || status === 'chargedback') && body['refundedAt'] === null) bad('refundedAt', `is required when status is ${String(status)}`);
  if (status === 'waiting_payment' && (body['approvedDate'] ?? null) !== null) bad('approvedDate', 'must be null while waiting_payment');

  const customer = body['customer'];
  if (!isObject(customer)) bad('customer', 'must be an object');
  else {
    if (typeof customer['name'] !== 'string' || customer['name'].trim() === '') bad('customer.name', 'must be a non-empty string');
    if (typeof customer['email'] !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(customer['email'])) bad('customer.email', 'must be an e-mail address (not null)');
    if (customer['phone'] !== null && customer['phone'] !== undefined && typeof customer['phone'] !== 'string') bad('customer.phone', 'must be a string or null');
    if (customer['document'] !== null && customer['document'] !== undefined && (typeof customer['document'] !== 'string' || !/^\d+$/.test(customer['document'])))
      bad('customer.document', 'must be digits only or null');
    if (customer['country'] !== undefined && typeof customer['country'] !== 'string') bad('customer.country', 'must be a string');
    if (customer['ip'] !== undefined && customer['ip'] !== null && typeof customer['ip'] !== 'string') bad('customer.ip', 'must be a string or null');
  }

  const products = body['products'];
  if (!Array.isArray(products) || products.length === 0) bad('products', 'must be a non-empty array');
  else
    products.forEach((product, i) => {
      const at = `products[${i}]`;
      if (!isObject(product)) return bad(at, 'must be an object');
      for (const field of ['id', 'name']) if (typeof product[field] !== 'string' || (product[field] as string).trim() === '') bad(`${at}.${field}`, 'must be a non-empty string');
      for (const field of ['planId', 'planName']) if (product[field] !== null && typeof product[field] !== 'string') bad(`${at}.${field}`, 'must be a string or null');
      if (!Number.isInteger(product['quantity']) || (product['quantity'] as number) < 1) bad(`${at}.quantity`, 'must be an integer ≥ 1');
      if (!isCents(product['priceInCents'])) bad(`${at}.priceInCents`, 'must be integer cents ≥ 0');
    });

  const tracking = body['trackingParameters'];
  if (!isObject(tracking)) bad('trackingParameters', 'must be an object');
  else {
    for (const key of TRACKING_KEYS) {
      if (!(key in tracking)) bad(`trackingParameters.${key}`, 'is required (string or null)');
      else if (tracking[key] !== null && typeof tracking[key] !== 'string') bad(`trackingParameters.${key}`, 'must be a string or null');
    }
    for (const key of Object.keys(tracking)) if (!(TRACKING_KEYS as readonly string[]).includes(key)) bad(`trackingParameters.${key}`, 'is not a tracking parameter');
  }

  const commission = body['commission'];
  if (!isObject(commission)) bad('commission', 'must be an object');
  else {
    for (const field of ['totalPriceInCents', 'gatewayFeeInCents', 'userCommissionInCents']) if (!isCents(commission[field])) bad(`commission.${field}`, 'must be integer cents ≥ 0');
    if (commission['currency'] !== undefined && (typeof commission['currency'] !== 'string' || !/^[A-Z]{3}$/.test(commission['currency']))) bad('commission.currency', 'must be a 3-letter currency code');
  }
  if (body['isTest'] !== undefined && typeof body['isTest'] !== 'boolean') bad('isTest', 'must be a boolean');
  return errors;
}

/** Rank of a status: an order never moves to a lower one, nor sideways (paid ↔ refused, refunded ↔ chargedback). */
export const STATUS_RANK: Record<OrderStatus, number> = { waiting_payment: 0, paid: 1, refused: 1, refunded: 2, chargedback: 2 };

/** Orders older than this many days by createdAt are refused. */
export const maxAgeDays = (status: OrderStatus): number => (status === 'refunded' || status === 'chargedback' ? 45 : 7);
