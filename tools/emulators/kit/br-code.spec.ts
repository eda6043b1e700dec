import { brCodeCrc, dynamicBrCode, qrCodePng, qrCodePngBase64, qrCodePngDataUrl, qrCodeSvg, recurrenceBrCode, staticBrCode } from './br-code';

const merchant = { name: 'ORQUESTRA SANDBOX', city: 'SAO PAULO' };

/** CRC-16/CCITT-FALSE, as the BR Code manual defines field 63: written here so the test does not trust pix-utils. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function expectValidCrc(code: string): void {
  expect(code.slice(-8, -4)).toBe('6304');
  expect(code.slice(-4)).toBe(crc16(code.slice(0, -4)));
}

describe('BR Code', () => {
  it('builds a one-use dynamic code pointing at the payload location, with a valid CRC', () => {
    const code = dynamicBrCode('pix.example.com/qr/v2/abc123', merchant);
    expect(code.startsWith('000201010212')).toBe(true);
    expect(code).toContain('0014br.gov.bcb.pix');
    expect(code).toContain('pix.example.com/qr/v2/abc123');
    expect(code).toContain('5917ORQUESTRA SANDBOX6009SAO PAULO');
    expectValidCrc(code);
  });

  it('builds a static code with the key, the exact amount in reais and the txid', () => {
    const code = staticBrCode({ pixKey: 'key@example.com', amountCents: 123_456_789, txid: 'mpqrinter42', merchant });
    expect(code).toContain('0115key@example.com');
    expect(code).toContain('54101234567.89');
    expect(code).toContain('0511mpqrinter42');
    expectValidCrc(code);
  });

  it('refuses a merchant name EMV cannot carry', () => {
    expect(() => dynamicBrCode('pix.example.com/x', { name: 'N'.repeat(26), city: 'SAO PAULO' })).toThrow(/cannot build BR Code/);
  });
});

describe('QR code images', () => {
  const code = dynamicBrCode('pix.example.com/qr/v2/abc123', merchant);

  it('renders the same PNG as bytes, bare base64 and a data URL', async () => {
    const png = await qrCodePng(code);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(await qrCodePngBase64(code)).toBe(png.toString('base64'));
    expect(await qrCodePngDataUrl(code)).toBe(`data:image/png;base64,${png.toString('base64')}`);
  });

  it('renders a PNG of the asked width, and an SVG', async () => {
    const png = await qrCodePng(code, 600);
    expect(png.readUInt32BE(16)).toBe(600);
    expect(await qrCodeSvg(code)).toMatch(/^<svg /);
  });
});

describe('recurrenceBrCode', () => {
  it('puts the recurrence in field 80, alone (journey 2) or with the immediate charge (journey 3), with a valid CRC', () => {
    const alone = recurrenceBrCode('pix.example/v2/rec/abc', merchant);
    expect(alone).toContain('80440014br.gov.bcb.pix2522pix.example/v2/rec/abc');
    expect(alone).not.toContain('pix.example/v2/cob');
    const combined = recurrenceBrCode('pix.example/v2/rec/abc', merchant, 'pix.example/v2/cob/xyz');
    expect(combined).toContain('pix.example/v2/cob/xyz');
    expect(combined).toContain('2522pix.example/v2/rec/abc');
    for (const code of [alone, combined]) expect(code.slice(-4)).toBe(brCodeCrc(code.slice(0, -4)));
    expect(brCodeCrc(dynamicBrCode('pix.example/v2/cob/xyz', merchant).slice(0, -4))).toBe(dynamicBrCode('pix.example/v2/cob/xyz', merchant).slice(-4));
  });
});
