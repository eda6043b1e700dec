/**
 * The Pix "copia e cola" of a charge: a dynamic EMV BR Code whose merchant account field points at
 * the charge's payload location, with the CRC16 the payer's bank checks. Asaas's own codes look
 * like `…0014br.gov.bcb.pix2551pix-h.asaas.com/pixqrcode/cobv/pay_…`. Built by pix-utils.
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
  // oneTime writes "010212" (point of initiation: unique), as Asaas's codes carry.
  const pix = createDynamicPix({ merchantName: merchant.name, merchantCity: merchant.city, url: location, oneTime: true });
  if (hasError(pix)) throw new Error(`cannot build BR Code: ${pix.message}`);
  return pix.toBRCode();
}

/** Base64 PNG of the QR code, without a data-URL prefix (Asaas's `encodedImage`). */
export async function qrCodePngBase64(brCode: string): Promise<string> {
  const dataUrl = await QRCode.toDataURL(brCode, { type: 'image/png', errorCorrectionLevel: 'M', margin: 2, scale: 4 });
  return dataUrl.slice(dataUrl.indexOf(',') + 1);
}
