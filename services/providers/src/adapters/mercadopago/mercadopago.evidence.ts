/**
 * The merchant's chargeback defense as Mercado Pago takes it: files (.jpg, .png or .pdf, 10 MB in
 * all) posted as multipart `files[]` to `POST /v1/chargebacks/{id}/documentation` (psp-apis.md §2;
 * Mercado Pago developers "Manage chargebacks": 200 OK and `documentation_status` turns
 * `review_pending`). Ours is text plus links, so it is sent as one PDF that holds exactly that text
 * and those links, nothing added: the merchant's own written answer, as a document.
 *
 * The PDF is plain ASCII (Helvetica, WinAnsiEncoding: Portuguese accents are octal escapes;
 * characters outside Latin-1 become `?`), so the multipart body is a string like every other
 * request body of the HTTP core.
 */
import { randomBytes } from 'node:crypto';
import type { DisputeEvidenceInput } from '../provider-disputes';

/** Mercado Pago's limit for all files of one upload. */
export const DOCUMENTATION_LIMIT_BYTES = 10 * 1024 * 1024;

const LINE_CHARS = 90;
const LINES_PER_PAGE = 50;

/** Word-wrapped lines of at most LINE_CHARS (a longer word is cut). */
export function wrapLines(text: string): string[] {
  const out: string[] = [];
  for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter((w) => w.length > 0)) {
      let rest = word;
      while (rest.length > LINE_CHARS) {
        if (line) out.push(line);
        out.push(rest.slice(0, LINE_CHARS));
        line = '';
        rest = rest.slice(LINE_CHARS);
      }
      if (!line) line = rest;
      else if (line.length + 1 + rest.length <= LINE_CHARS) line = `${line} ${rest}`;
      else {
        out.push(line);
        line = rest;
      }
    }
    out.push(line);
  }
  return out;
}

/** A PDF string literal's content: `\`, `(`, `)` escaped, Latin-1 as octal, anything else `?`. */
export function pdfText(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.codePointAt(0) ?? 63;
    if (ch === '\\' || ch === '(' || ch === ')') out += `\\${ch}`;
    else if (code >= 32 && code < 127) out += ch;
    else if (code >= 160 && code <= 255) out += `\\${code.toString(8).padStart(3, '0')}`;
    else out += '?';
  }
  return out;
}

/** The evidence as a PDF: a heading, the text, then the links one per line. */
export function evidencePdf(input: Pick<DisputeEvidenceInput, 'text' | 'urls'>): string {
  const lines = ['Contestação de chargeback', '', ...wrapLines(input.text), ...(input.urls.length > 0 ? ['', 'Comprovantes:', ...input.urls.flatMap((u) => wrapLines(u))] : [])];
  const pages: string[][] = [];
  for (let i = 0; i < lines.length; i += LINES_PER_PAGE) pages.push(lines.slice(i, i + LINES_PER_PAGE));
  // Objects: 1 catalog, 2 pages, 3 font, then a page and its content stream per page.
  const objects: string[] = [];
  const kids = pages.map((_, i) => `${4 + i * 2} 0 R`).join(' ');
  objects.push('<< /Type /Catalog /Pages 2 0 R >>');
  objects.push(`<< /Type /Pages /Kids [${kids}] /Count ${pages.length} >>`);
  objects.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  pages.forEach((page, i) => {
    const stream = `BT /F1 11 Tf 14 TL 50 800 Td\n${page.map((l) => `(${pdfText(l)}) Tj T*`).join('\n')}\nET`;
    objects.push(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`);
    objects.push(`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`);
  });
  let pdf = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(pdf.length);
    pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = pdf.length;
  pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return pdf;
}

/** The multipart body with the one PDF as `files[]`, and its content type. */
export function documentationUpload(input: Pick<DisputeEvidenceInput, 'text' | 'urls'>): { body: string; contentType: string } {
  const pdf = evidencePdf(input);
  if (pdf.length > DOCUMENTATION_LIMIT_BYTES) throw new RangeError("evidence is larger than Mercado Pago's 10 MB for documents");
  const boundary = `orquestra-${randomBytes(12).toString('hex')}`;
  const body = `--${boundary}\r\nContent-Disposition: form-data; name="files[]"; filename="contestacao.pdf"\r\nContent-Type: application/pdf\r\n\r\n${pdf}\r\n--${boundary}--\r\n`;
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}
