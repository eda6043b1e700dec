/**
 * The Pix code Stripe shows in `next_action.pix_display_qr_code.data`: a dynamic EMV BR Code whose
 * merchant account field points at a payload URL, with the CRC16 the payer's bank checks. Built by
 * pix-utils so field lengths and the CRC are not hand-rolled; images rendered by `qrcode`.
 */
import { createDynamicPix, hasError } from 'pix-utils';
import QRCode from 'qrcode';

export interface Merchant {
  /** ≤ 25 characters (EMV field 59). */
  name: string;
  /** ≤ 15 characters (EMV field 60). */
  city: string;
}

export function dynamicBrCode(payloadUrl: string, merchant: Merchant): string {
  // oneTime adds "010212" (point of initiation: single use), as codes for one payment carry.
  const pix = createDynamicPix({ merchantName: merchant.name, merchantCity: merchant.city, url: payloadUrl, oneTime: true });
  if (hasError(pix)) throw new Error(`cannot build BR Code: ${pix.message}`);
  return pix.toBRCode();
}

export function qrCodePng(data: string): Promise<Buffer> {
  return QRCode.toBuffer(data, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 4 });
}

export function qrCodeSvg(data: string): Promise<string> {
  return QRCode.toString(data, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
}
