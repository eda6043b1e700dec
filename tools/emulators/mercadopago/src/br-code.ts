/**
 * The "Pix Copia e Cola" of a Mercado Pago Pix payment: a BR Code (EMV, CRC16) carrying the
 * seller's Pix key, the amount and the txid `mpqrinter<payment id>`, as Mercado Pago's own codes
 * do (see the docs' sample `…62070503***6304…` and live codes `…0519mpqrinter1327410519…`). Built by
 * pix-utils; the image is a bare base64 PNG (`qr_code_base64` has no data-URL prefix).
 */
import { createStaticPix, hasError } from 'pix-utils';
import QRCode from 'qrcode';

export interface Merchant {
  /** ≤ 25 characters (EMV field 59). */
  name: string;
  /** ≤ 15 characters (EMV field 60). */
  city: string;
}

export function pixBrCode(pixKey: string, amountCents: number, paymentId: number, merchant: Merchant): string {
  const pix = createStaticPix({
    merchantName: merchant.name,
    merchantCity: merchant.city,
    pixKey,
    // pix-utils writes the amount with toFixed(2): exact for any cents value below 2^53 / 100.
    transactionAmount: amountCents / 100,
    txid: `mpqrinter${paymentId}`,
  });
  if (hasError(pix)) throw new Error(`cannot build BR Code: ${pix.message}`);
  return pix.toBRCode();
}

/** Base64 PNG of the QR code of `brCode`, without the `data:` prefix. */
export async function qrCodePngBase64(brCode: string): Promise<string> {
  const dataUrl = await QRCode.toDataURL(brCode, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, scale: 4 });
  return dataUrl.slice(dataUrl.indexOf(',') + 1);
}
