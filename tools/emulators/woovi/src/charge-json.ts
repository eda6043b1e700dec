/**
 * Charges and webhook bodies in Woovi's wire shapes: the `charge` object of
 * POST/GET /api/v1/charge, and the OPENPIX:* webhook payloads (docs "Payload de Pix Cobrança",
 * "Payload de Cobrança Expirada"; woovi-nodejs-sdk charge types and tests).
 */
import type { EmulatorState, StoredCharge } from './emulator-state';
import { splitJson } from './splits';

export interface Company {
  id: string;
  name: string;
  taxID: string;
}

/** The payer the emulator reports for every simulated Pix (a valid, well-known test CPF). */
const SANDBOX_PAYER = { name: 'PAGADOR SANDBOX', taxID: { taxID: '52998224725', type: 'BR:CPF' } };

export function imagePath(paymentLinkID: string): string {
  return `/openpix/charge/brcode/image/${paymentLinkID}.png`;
}

export function chargeJson(state: EmulatorState, charge: StoredCharge) {
  return {
    status: charge.status,
    ...(charge.customer ? { customer: charge.customer } : {}),
    value: charge.value,
    comment: charge.comment,
    identifier: charge.transactionID,
    correlationID: charge.correlationID,
    transactionID: charge.transactionID,
    paymentLinkID: charge.paymentLinkID,
    paymentLinkUrl: `${charge.publicBase}/pay/${charge.paymentLinkID}`,
    qrCodeImage: `${charge.publicBase}${imagePath(charge.paymentLinkID)}`,
    brCode: charge.brCode,
    additionalInfo: charge.additionalInfo,
    discount: 0,
    valueWithDiscount: charge.value,
    fee: charge.fee,
    expiresIn: charge.expiresIn,
    expiresDate: state.expiresAt(charge).toISOString(),
    type: 'DYNAMIC',
    globalID: charge.globalID,
    createdAt: charge.createdAt.toISOString(),
    updatedAt: charge.updatedAt.toISOString(),
    ...(charge.pix ? { paidAt: charge.pix.time.toISOString() } : {}),
    ...(charge.splits && charge.splits.length > 0 ? { splits: charge.splits.map(splitJson) } : {}),
  };
}

export type WooviEvent = 'OPENPIX:CHARGE_CREATED' | 'OPENPIX:CHARGE_COMPLETED' | 'OPENPIX:CHARGE_EXPIRED' | 'OPENPIX:TRANSACTION_RECEIVED';

/** The body Woovi posts for `event` about `charge`. */
export function webhookBody(state: EmulatorState, event: WooviEvent, charge: StoredCharge, company: Company) {
  const json = chargeJson(state, charge);
  const pix = charge.pix;
  if ((event === 'OPENPIX:CHARGE_COMPLETED' || event === 'OPENPIX:TRANSACTION_RECEIVED') && pix) {
    return {
      event,
      charge: json,
      pix: {
        charge: json,
        ...(charge.customer ? { customer: charge.customer } : {}),
        payer: SANDBOX_PAYER,
        time: pix.time.toISOString(),
        value: charge.value,
        transactionID: charge.transactionID,
        endToEndId: pix.endToEndId,
        ...(pix.infoPagador ? { infoPagador: pix.infoPagador } : {}),
      },
      company,
      account: {},
    };
  }
  return { event, charge: json, company };
}
