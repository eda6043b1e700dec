/**
 * The Pix "copia e cola" every emulator that issues Pix hands out: an EMV BR Code with the CRC16
 * a payer's bank checks, and the images of its QR code. Built by pix-utils so field lengths and
 * the CRC are not hand-rolled; each emulator only says what its provider puts in the code (a
 * payload location URL, or a key, amount and txid) and which image format its API answers with.
 */
import { createDynamicPix, createStaticPix, hasError } from 'pix-utils';
import QRCode from 'qrcode';

export interface Merchant {
  /** ≤ 25 characters (EMV field 59). */
  name: string;
  /** ≤ 15 characters (EMV field 60). */
  city: string;
}

/** The receiver an emulator writes into its BR Codes unless told otherwise. */
export const SANDBOX_MERCHANT: Merchant = Object.freeze({ name: 'ORQUESTRA SANDBOX', city: 'SAO PAULO' });

/**
 * A dynamic BR Code: its merchant account field points at the charge's payload location, as
 * Efí's, Asaas's, Pagar.me's, Stripe's and Woovi's codes do. Point of initiation "12" (one use):
 * each code serves one payment.
 */
export function dynamicBrCode(location: string, merchant: Merchant): string {
  const pix = createDynamicPix({ merchantName: merchant.name, merchantCity: merchant.city, url: location, oneTime: true });
  if (hasError(pix)) throw new Error(`cannot build BR Code: ${pix.message}`);
  return pix.toBRCode();
}

export interface StaticPix {
  pixKey: string;
  amountCents: number;
  txid: string;
  merchant: Merchant;
}

/** A BR Code carrying the receiver's Pix key, the amount and a txid (Mercado Pago's codes). */
export function staticBrCode({ pixKey, amountCents, txid, merchant }: StaticPix): string {
  const pix = createStaticPix({
    merchantName: merchant.name,
    merchantCity: merchant.city,
    pixKey,
    // pix-utils writes the amount with toFixed(2): exact for any cents value below 2^53 / 100.
    transactionAmount: amountCents / 100,
    txid,
  });
  if (hasError(pix)) throw new Error(`cannot build BR Code: ${pix.message}`);
  return pix.toBRCode();
}

// qrcode hands rendererOpts to pngjs as they are; its types list only the deflate options.
const PNG_OPTIONS = { filterType: 2, colorType: 0 } as QRCode.QRCodeToBufferOptions['rendererOpts'];

/**
 * PNG bytes of the QR code of `brCode`, 4 px a module, or `widthPx` wide when the provider's API
 * takes a size. Grayscale with the "up" row filter: pngjs otherwise tries all five filters on
 * every RGBA row, which made this image the Efí emulator's largest cost per charge in the bench
 * (3.5 ms and 2.4 KB per image instead of 5.4 ms and 4.1 KB).
 */
export function qrCodePng(brCode: string, widthPx?: number): Promise<Buffer> {
  const size = widthPx === undefined ? { scale: 4 } : { width: widthPx };
  return QRCode.toBuffer(brCode, { type: 'png', errorCorrectionLevel: 'M', margin: 2, ...size, rendererOpts: PNG_OPTIONS });
}

/** The PNG as bare base64, without a data-URL prefix (Asaas's `encodedImage`, Mercado Pago's `qr_code_base64`). */
export async function qrCodePngBase64(brCode: string): Promise<string> {
  return (await qrCodePng(brCode)).toString('base64');
}

/** The PNG as `data:image/png;base64,…` (Efí's `imagemQrcode`). */
export async function qrCodePngDataUrl(brCode: string): Promise<string> {
  return `data:image/png;base64,${await qrCodePngBase64(brCode)}`;
}

export function qrCodeSvg(brCode: string): Promise<string> {
  return QRCode.toString(brCode, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}

const tlv = (id: string, value: string) => `${id}${String(value.length).padStart(2, '0')}${value}`;

/** CRC16-CCITT (polynomial 0x1021, initial 0xFFFF) over the code up to and including `6304`, as the BR Code rules say. */
export function brCodeCrc(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** The top-level fields of a BR Code, its CRC left out. */
function topLevelFields(code: string): [string, string][] {
  const fields: [string, string][] = [];
  for (let at = 0; at < code.length; ) {
    const id = code.slice(at, at + 2);
    const length = Number(code.slice(at + 2, at + 4));
    if (id !== '63') fields.push([id, code.slice(at + 4, at + 4 + length)]);
    at += 4 + length;
  }
  return fields;
}

/**
 * A Pix Automático QR code: the recurrence's location in field 80 (GUI `br.gov.bcb.pix`, URL in
 * 25), as the Banco Central's QR rules for recurrences put it. With `immediateLocation` it is the
 * combined code of journey 3 (the immediate charge's field 26 as well); without, journey 2's code
 * carries only the recurrence.
 */
export function recurrenceBrCode(recurrenceLocation: string, merchant: Merchant, immediateLocation?: string): string {
  const base = topLevelFields(dynamicBrCode(immediateLocation ?? recurrenceLocation, merchant)).filter(([id]) => immediateLocation !== undefined || id !== '26');
  base.push(['80', tlv('00', 'br.gov.bcb.pix') + tlv('25', recurrenceLocation)]);
  base.sort(([a], [b]) => a.localeCompare(b));
  const payload = `${base.map(([id, value]) => tlv(id, value)).join('')}6304`;
  return payload + brCodeCrc(payload);
}
