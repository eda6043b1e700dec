/**
 * The Pix "copia e cola" of an order: a dynamic EMV BR Code whose merchant account field points at
 * the charge's payload location (Pagar.me's codes point at `pix.stone.com.br/pix/v2/<uuid>`), with
 * the CRC16 a payer's bank checks. Built by pix-utils so field lengths and the CRC are not hand-rolled.
 */
import { createDynamicPix, hasError } from 'pix-utils';
import QRCode from 'qrcode';

export interface Merchant {
  /** ≤ 25 characters (EMV field 59). */
  name: string;
  /** ≤ 15 characters (EMV field 60). */
  city: string;
}

/** EMV fields 59/60 take plain upper-case ASCII of bounded length. */
export function merchantFor(accountName: string, city: string): Merchant {
  const plain = (text: string, max: number) =>
    text.normalize('NFD').replace(/[^\x20-\x7e]/g, '').toUpperCase().trim().slice(0, max) || 'PAGARME SANDBOX';
  return { name: plain(accountName, 25), city: plain(city, 15) };
}

export function dynamicBrCode(location: string, merchant: Merchant): string {
  // oneTime adds "010212" (point of initiation: unique): a Pagar.me Pix QR serves one payment.
  const pix = createDynamicPix({ merchantName: merchant.name, merchantCity: merchant.city, url: location, oneTime: true });
  if (hasError(pix)) throw new Error(`cannot build BR Code: ${pix.message}`);
  return pix.toBRCode();
}

/** PNG bytes of the QR code of `brCode` (what `qr_code_url` serves). */
export function qrCodePng(brCode: string): Promise<Buffer> {
  return QRCode.toBuffer(brCode, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 4 });
}
