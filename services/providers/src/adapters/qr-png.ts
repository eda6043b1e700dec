import QRCode from 'qrcode';

/** The PNG (base64) of a Pix copy-and-paste code, for providers that answer only the code. */
export async function qrPngBase64(code: string): Promise<string> {
  const png = await QRCode.toBuffer(code, { type: 'png', errorCorrectionLevel: 'M', margin: 2, scale: 4 });
  return png.toString('base64');
}
