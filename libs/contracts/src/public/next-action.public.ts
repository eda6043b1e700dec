import type { NextAction } from '../generated/orquestra/common/v1/common';
import { present, type EveryField } from '../presence';

/**
 * What the buyer (or the bot) does to pay, in the API's field names: the one shape every hop
 * carries. The gRPC message has the same fields with the same presence (proto3 `optional`): a
 * detail that does not apply to the action, or that the provider did not give, is absent. The
 * converters below only copy; they list every field so that a field added on either side fails to
 * compile until it is carried.
 */
export interface NextActionFields {
  /** pix_qr, boleto, redirect or none. */
  type: string;
  qr_code?: string;
  qr_code_base64?: string;
  /** Our URL of the Pix QR image (payments sets it; providers never do). */
  qr_code_url?: string;
  digitable_line?: string;
  url?: string;
}

/** A next action → the gRPC message. */
export function nextActionToProto(action: NextActionFields): NextAction {
  const every: EveryField<NextAction> = {
    type: action.type,
    qr_code: action.qr_code,
    qr_code_base64: action.qr_code_base64,
    qr_code_url: action.qr_code_url,
    digitable_line: action.digitable_line,
    url: action.url,
  };
  return present(every);
}

/** The gRPC message → a next action. */
export function nextActionFromProto(action: NextAction): NextActionFields {
  const every: EveryField<NextActionFields> = {
    type: action.type,
    qr_code: action.qr_code,
    qr_code_base64: action.qr_code_base64,
    qr_code_url: action.qr_code_url,
    digitable_line: action.digitable_line,
    url: action.url,
  };
  return present(every);
}

/**
 * The next_action of the public payment object (spec §2): every field, null when absent; null
 * when there is no action (a message without a type is one). The one definition of that shape:
 * the gateway answers with it and events carry it.
 */
export function toPublicNextAction(action: NextAction | undefined) {
  if (!action?.type) return null;
  return {
    type: action.type,
    qr_code: action.qr_code ?? null,
    qr_code_base64: action.qr_code_base64 ?? null,
    qr_code_url: action.qr_code_url ?? null,
    digitable_line: action.digitable_line ?? null,
    url: action.url ?? null,
  };
}

export type PublicNextAction = NonNullable<ReturnType<typeof toPublicNextAction>>;
