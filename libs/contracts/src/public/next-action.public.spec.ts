import { NextAction } from '../generated/orquestra/common/v1/common';
import { nextActionFromProto, nextActionToProto, toPublicNextAction, type NextActionFields } from './next-action.public';

const overWire = (action: NextAction) => NextAction.decode(NextAction.encode(action).finish());
const EVERY: NextActionFields = {
  type: 'pix_qr',
  qr_code: '000201',
  qr_code_base64: 'iVBORw0KGgo=',
  qr_code_url: 'https://api.example.com/qr/pay_1.png',
  digitable_line: '34191',
  url: 'https://pay.example.com/1',
};

describe('next action ⇄ proto NextAction', () => {
  it('round-trips every field, through the wire too', () => {
    expect(nextActionFromProto(overWire(nextActionToProto(EVERY)))).toStrictEqual(EVERY);
  });

  it('keeps a detail that does not apply absent, on the wire and back (never an empty string)', () => {
    const boleto: NextActionFields = { type: 'boleto', digitable_line: '34191', url: 'https://b.example/1' };
    const wire = overWire(nextActionToProto(boleto));
    expect(wire).toEqual({ type: 'boleto', digitable_line: '34191', url: 'https://b.example/1' });
    expect(nextActionFromProto(wire)).toStrictEqual(boleto);
  });
});

describe('toPublicNextAction', () => {
  it('shows every field, null when absent', () => {
    expect(toPublicNextAction(overWire({ type: 'redirect', url: 'https://pay.example.com/1' }))).toStrictEqual({
      type: 'redirect',
      qr_code: null,
      qr_code_base64: null,
      qr_code_url: null,
      digitable_line: null,
      url: 'https://pay.example.com/1',
    });
  });

  it('is null without an action or without its type', () => {
    expect(toPublicNextAction(undefined)).toBeNull();
    expect(toPublicNextAction(overWire({ type: '' }))).toBeNull();
  });
});
