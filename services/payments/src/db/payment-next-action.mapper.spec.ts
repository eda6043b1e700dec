import { common } from '@orquestra/contracts';
import { toNextActionDoc, toProtoNextAction } from './payment-next-action.mapper';

const overWire = (action: common.NextAction) => common.NextAction.decode(common.NextAction.encode(action).finish());

describe('payment next action mapper', () => {
  it('stores a detail the charge lacks as empty and sends it on as absent', () => {
    const doc = toNextActionDoc(overWire({ type: 'boleto', digitable_line: '34191', url: 'https://b.example/1' }), undefined);
    expect(doc).toEqual({ type: 'boleto', qr_code: '', qr_code_base64: '', qr_code_url: '', digitable_line: '34191', url: 'https://b.example/1' });
    expect(overWire(toProtoNextAction(doc))).toEqual({ type: 'boleto', digitable_line: '34191', url: 'https://b.example/1' });
  });

  it('keeps our QR image URL, which the provider never gives', () => {
    const doc = toNextActionDoc({ type: 'pix_qr', qr_code: '000201' }, 'https://api.example.com/qr/pay_1.png');
    expect(toProtoNextAction(doc)).toEqual({ type: 'pix_qr', qr_code: '000201', qr_code_url: 'https://api.example.com/qr/pay_1.png' });
  });
});
