/**
 * The "Pix Copia e Cola" of a dynamic charge: an EMV BR Code whose merchant account field points
 * at the charge's payload location URL, with a CRC16 the payer's bank checks. Built by pix-utils so
 * the encoding (field lengths, CRC) is not hand-rolled here.
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
  // oneTime adds "010212" (point of initiation: unique), as Efí's own codes carry.
  const pix = createDynamicPix({ merchantName: merchant.name, merchantCity: merchant.city, url: location, oneTime: true });
  if (hasError(pix)) throw new Error(`cannot build BR Code: ${pix.message}`);
  return pix.toBRCode();
}

/** `data:image/png;base64,…` of the QR code of `brCode` (Efí's `imagemQrcode`). */
export function qrCodePngDataUrl(brCode: string): Promise<string> {
  return QRCode.toDataURL(brCode, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, scale: 4 });
}
