import { documentationUpload, evidencePdf, pdfText, wrapLines } from './mercadopago.evidence';

describe('Mercado Pago chargeback documentation', () => {
  it('wraps text at 90 characters, keeping paragraphs and cutting words longer than a line', () => {
    const lines = wrapLines(`${'palavra '.repeat(30)}\n\n${'x'.repeat(200)}`);
    expect(lines.every((l) => l.length <= 90)).toBe(true);
    expect(lines).toContain('');
    expect(lines.filter((l) => /^x+$/.test(l)).map((l) => l.length)).toEqual([90, 90, 20]);
  });

  it('escapes PDF string characters, writes Portuguese letters as WinAnsi octal and the rest as ?', () => {
    expect(pdfText('a (b) \\ ção 😀')).toBe('a \\(b\\) \\\\ \\347\\343o ?');
  });

  it('is an ASCII PDF whose cross-reference offsets point at its objects, holding the text and the links', () => {
    const pdf = evidencePdf({ text: 'Entregue (ver anexo).', urls: ['https://loja.example/rastreio/BR123'] });
    expect([...pdf].every((ch) => (ch.codePointAt(0) ?? 0) < 128)).toBe(true);
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    expect(pdf).toContain('(Entregue \\(ver anexo\\).) Tj');
    expect(pdf).toContain('(https://loja.example/rastreio/BR123) Tj');
    const xrefAt = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)?.[1]);
    expect(pdf.slice(xrefAt, xrefAt + 4)).toBe('xref');
    const offsets = [...pdf.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    offsets.forEach((offset, i) => expect(pdf.slice(offset).startsWith(`${i + 1} 0 obj`)).toBe(true));
  });

  it('pages long answers (50 lines a page) and sends the PDF as multipart files[]', () => {
    const pdf = evidencePdf({ text: Array.from({ length: 120 }, (_, i) => `linha ${i}`).join('\n'), urls: [] });
    expect(/\/Count 3 >>/.test(pdf)).toBe(true);
    const { body, contentType } = documentationUpload({ text: 'ok', urls: [] });
    const boundary = /boundary=(\S+)$/.exec(contentType)?.[1];
    expect(body.startsWith(`--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="contestacao.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4`)).toBe(true);
    expect(body.endsWith(`\r\n--${boundary}--\r\n`)).toBe(true);
  });
});
