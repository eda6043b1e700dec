/** Public URLs of a payment: the buyer's page and the open Pix QR image. */
export class PaymentLinks {
  constructor(
    private readonly payBaseUrl: string,
    private readonly publicBaseUrl: string,
  ) {}

  paymentUrl(paymentId: string): string {
    return `${this.payBaseUrl.replace(/\/$/, '')}/${paymentId}`;
  }

  qrCodeUrl(paymentId: string): string {
    return `${this.publicBaseUrl.replace(/\/$/, '')}/qr/${paymentId}.png`;
  }
}
