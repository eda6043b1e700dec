import { normalizeAllowedOrigins, normalizeOrigin } from './origins';

describe('origins', () => {
  it('normalizes scheme://host[:port]', () => {
    expect(normalizeOrigin('https://Loja.Exemplo.com.br')).toBe('https://loja.exemplo.com.br');
    expect(normalizeOrigin('https://loja.exemplo.com.br/')).toBe('https://loja.exemplo.com.br');
    expect(normalizeOrigin('https://loja.exemplo.com.br:443')).toBe('https://loja.exemplo.com.br');
    expect(normalizeOrigin('http://localhost:3000')).toBe('http://localhost:3000');
  });

  it('refuses paths, queries, credentials and other schemes', () => {
    for (const bad of ['https://loja.com/checkout', 'https://loja.com?a=1', 'https://u:p@loja.com', 'ftp://loja.com', 'loja.com', 'javascript:alert(1)', '']) {
      expect(normalizeOrigin(bad)).toBeUndefined();
    }
  });

  it('a list: repeats dropped, each bad entry named, at most 20', () => {
    expect(normalizeAllowedOrigins(['https://a.com', 'https://A.com/', 'http://b.com:8080'])).toEqual(['https://a.com', 'http://b.com:8080']);
    expect(() => normalizeAllowedOrigins(['https://a.com', 'https://a.com/x'])).toThrow(expect.objectContaining({ param: 'allowed_origins[1]' }));
    expect(() => normalizeAllowedOrigins(Array.from({ length: 21 }, (_, i) => `https://s${i}.com`))).toThrow(expect.objectContaining({ param: 'allowed_origins' }));
  });
});
