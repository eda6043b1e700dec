import { escapeHtml, formatDateTime, safeUrl } from './html';

describe('payment page text helpers', () => {
  it('escapes every character that could open markup or leave an attribute', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&</a>`)).toBe('&#60;a href=&#34;x&#34; onclick=&#39;y&#39;&#62;&#38;&#60;/a&#62;');
  });

  it('lets only http(s) links through', () => {
    expect(safeUrl('https://boletos.example.com/1')).toBe('https://boletos.example.com/1');
    expect(safeUrl('javascript:alert(1)')).toBeUndefined();
    expect(safeUrl('data:text/html,<script>')).toBeUndefined();
    expect(safeUrl('not a url')).toBeUndefined();
    expect(safeUrl('')).toBeUndefined();
  });

  it('shows times in Brasília', () => {
    expect(formatDateTime('2026-11-22T13:30:00.000Z')).toBe('22/11/2026, 10:30');
    expect(formatDateTime('')).toBe('');
  });
});
