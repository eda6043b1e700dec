/**
 * The charge's "Pix Copia e Cola": a dynamic EMV BR Code pointing at the charge's payload location,
 * with the CRC16 the payer's bank checks, built by pix-utils. Plus the PNG of its QR code, which
 * Woovi serves at `qrCodeImage`.
 */
import { createDynamicPix, hasError } from 'pix-utils';
import QRCode from 'qrcode';

export interface Merchant {
  /** ≤ 25 characters (EMV field 59). */
  name: string;
  /** ≤ 15 characters (EMV field 60). */
  city: string;
}

export function dynamicBrCode(location: string, merchant: Merchant): string {
  const pix = createDynamicPix({ merchantName: merchant.name, merchantCity: merchant.city, url: location, oneTime: true });
  if (hasError(pix)) throw new Error(`cannot build BR Code: ${pix.message}`);
  return pix.toBRCode();
}

/** Woovi accepts `size` from 600 to 4096 px (default 1024). */
export function qrCodePng(brCode: string, size: number): Promise<Buffer> {
  return QRCode.toBuffer(brCode, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: size });
}
