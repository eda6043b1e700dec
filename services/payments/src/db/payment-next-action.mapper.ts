import { nextActionFromProto, nextActionToProto, type common } from '@orquestra/contracts';
import type { NextActionDoc } from './payment.model';

// Stored payments keep "absent" as '' (every payment stored so far has it so), so this boundary is
// the one place that turns '' into absent and back; every hop after it carries the contracts'
// next action, whose fields have presence.
const given = (value: string): string | undefined => value || undefined;

/** The next action of a charge (providers) → the payment's stored one, with our QR image URL when given. */
export function toNextActionDoc(action: common.NextAction, qrCodeUrl: string | undefined): NextActionDoc {
  const fields = { ...nextActionFromProto(action), qr_code_url: qrCodeUrl };
  return {
    type: fields.type,
    qr_code: fields.qr_code ?? '',
    qr_code_base64: fields.qr_code_base64 ?? '',
    qr_code_url: fields.qr_code_url ?? '',
    digitable_line: fields.digitable_line ?? '',
    url: fields.url ?? '',
  };
}

/** The payment's stored next action → the gRPC one (the payment as answered, the payment page). */
export function toProtoNextAction(doc: NextActionDoc): common.NextAction {
  return nextActionToProto({
    type: doc.type,
    qr_code: given(doc.qr_code),
    qr_code_base64: given(doc.qr_code_base64),
    qr_code_url: given(doc.qr_code_url),
    digitable_line: given(doc.digitable_line),
    url: given(doc.url),
  });
}
