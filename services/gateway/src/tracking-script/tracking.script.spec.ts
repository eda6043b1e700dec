import { runInNewContext } from 'node:vm';
import { trackingScript } from './tracking.script';

/**
 * The very text served at /v1/tracking.js, run against a small stand-in of the browser objects it
 * touches (location, document with its cookie and links, localStorage). Real Chromium runs it in
 * tools/e2e/src/tracking-capture.e2e.spec.ts.
 */
const SCRIPT = trackingScript('https://pay.example.com/pay');
const DAY_MS = 86_400_000;

/** The part of the browser's Storage the script uses (no DOM types in this project). */
interface FakeStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}
interface FakeLink {
  tagName: 'A';
  nodeType: 1;
  href: string;
  parentNode: unknown;
}
interface Page {
  window: { localStorage: FakeStorage; Orquestra?: Record<string, unknown> };
  links: FakeLink[];
  listeners: Record<string, Array<(event: unknown) => void>>;
  cookies: Map<string, string>;
  cookieWrites: string[];
  utm(): Record<string, string>;
  withUtm(url: string): string;
  fire(type: string, target: unknown): void;
}

/** A localStorage of a Map; `blocked` makes every call throw, as Safari's private mode did. */
function storage(items: Map<string, string>, blocked = false): FakeStorage {
  const guard = () => {
    if (blocked) throw new Error('SecurityError');
  };
  return {
    getItem: (key: string) => (guard(), items.get(key) ?? null),
    setItem: (key: string, value: string) => (guard(), void items.set(key, value)),
    removeItem: (key: string) => (guard(), void items.delete(key)),
  };
}

function openPage(
  href: string,
  options: { attributes?: Record<string, string>; items?: Map<string, string>; blocked?: boolean; cookies?: Map<string, string>; links?: string[]; now?: number; readyState?: string; orquestra?: Record<string, unknown> } = {},
): Page {
  const cookies = options.cookies ?? new Map<string, string>();
  const cookieWrites: string[] = [];
  const links: FakeLink[] = (options.links ?? []).map((link) => ({ tagName: 'A', nodeType: 1, href: new URL(link, href).toString(), parentNode: null }));
  const listeners: Page['listeners'] = {};
  const document = {
    currentScript: { getAttribute: (name: string) => options.attributes?.[name] ?? null },
    readyState: options.readyState ?? 'loading',
    get cookie() {
      return [...cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    },
    set cookie(line: string) {
      cookieWrites.push(line);
      const [pair] = line.split(';');
      const [name, value] = [pair!.slice(0, pair!.indexOf('=')), pair!.slice(pair!.indexOf('=') + 1)];
      cookies.set(name, value);
    },
    addEventListener: (type: string, listener: (event: unknown) => void) => (listeners[type] ??= []).push(listener),
    querySelectorAll: (selector: string) => (selector === 'a[href]' ? links : []),
  };
  const window: Page['window'] = { localStorage: storage(options.items ?? new Map(), options.blocked), ...(options.orquestra ? { Orquestra: options.orquestra } : {}) };
  const now = options.now ?? Date.now();
  runInNewContext(SCRIPT, { window, document, location: new URL(href), URL, URLSearchParams, Date: { now: () => now } });
  const namespace = window.Orquestra as { utm(): Record<string, string>; withUtm(url: string): string };
  return {
    window,
    links,
    listeners,
    cookies,
    cookieWrites,
    // Out of the script's realm, as plain data.
    utm: () => JSON.parse(JSON.stringify(namespace.utm())) as Record<string, string>,
    withUtm: (url) => namespace.withUtm(url),
    fire: (type, target) => (listeners[type] ?? []).forEach((listener) => listener({ target })),
  };
}

describe('tracking.js (merchant-site script, spec §4)', () => {
  it('keeps the landing keys (the 13 only, 1 to 500 characters) in localStorage for data-days', () => {
    const items = new Map<string, string>();
    const now = Date.UTC(2026, 10, 25);
    const page = openPage(`https://loja.example.com/oferta?utm_source=facebook&utm_campaign=bf&fbclid=ABC&utm_id=9&utm_medium=&utm_term=${'t'.repeat(501)}&gclid=G%201`, {
      items,
      now,
      attributes: { 'data-days': '7' },
    });
    expect(page.utm()).toEqual({ utm_source: 'facebook', utm_campaign: 'bf', fbclid: 'ABC', gclid: 'G 1' });
    expect(JSON.parse(items.get('orquestra_utm')!)).toEqual({ v: page.utm(), exp: now + 7 * DAY_MS });
    expect(page.cookieWrites).toEqual([]);
  });

  it('a later page reads the stored set and decorates links to the payment hosts only; a link with tracking keys of its own is left whole', () => {
    const items = new Map<string, string>();
    openPage('https://loja.example.com/?utm_source=facebook&utm_campaign=bf&fbclid=ABC', { items });
    const page = openPage('https://loja.example.com/produto', {
      items,
      attributes: { 'data-hosts': ' pay.loja.com.br , checkout.x.com:8443/pagar' },
      links: [
        'https://pay.example.com/pay/pay_1', // the platform's own base (host and path)
        'https://pay.example.com/pay/pay_2?utm_source=email#top', // its own attribution: left whole
        'https://pay.example.com/outra/pay_3', // same host, outside the payment path
        'https://pay.loja.com.br/pay_4', // data-hosts, any port
        'https://pay.loja.com.br:444/pay_5',
        'https://checkout.x.com:8443/pagar/pay_6', // host with port and path
        'https://checkout.x.com/pagar/pay_7', // other port: not that entry
        'https://outro.example.com/pay/pay_8',
        '/pay/pay_9', // the merchant's own host
        'mailto:pay.loja.com.br',
      ],
    });
    expect(page.utm()).toEqual({ utm_source: 'facebook', utm_campaign: 'bf', fbclid: 'ABC' });
    page.listeners['DOMContentLoaded']!.forEach((listener) => listener({}));
    const keys = 'utm_source=facebook&utm_campaign=bf&fbclid=ABC';
    expect(page.links.map((link) => link.href)).toEqual([
      `https://pay.example.com/pay/pay_1?${keys}`,
      'https://pay.example.com/pay/pay_2?utm_source=email#top',
      'https://pay.example.com/outra/pay_3',
      `https://pay.loja.com.br/pay_4?${keys}`,
      `https://pay.loja.com.br:444/pay_5?${keys}`,
      `https://checkout.x.com:8443/pagar/pay_6?${keys}`,
      'https://checkout.x.com/pagar/pay_7',
      'https://outro.example.com/pay/pay_8',
      'https://loja.example.com/pay/pay_9',
      'mailto:pay.loja.com.br',
    ]);
  });

  it('decorates a link added after load when it is clicked (also a middle click), from a child of the link', () => {
    const items = new Map<string, string>();
    const page = openPage('https://loja.example.com/?utm_source=google&gclid=G1', { items, readyState: 'complete' });
    const link: FakeLink = { tagName: 'A', nodeType: 1, href: 'https://pay.example.com/pay/pay_late', parentNode: null };
    const child = { tagName: 'SPAN', nodeType: 1, parentNode: link };
    page.fire('click', child);
    expect(link.href).toBe('https://pay.example.com/pay/pay_late?utm_source=google&gclid=G1');
    const other: FakeLink = { tagName: 'A', nodeType: 1, href: 'https://pay.example.com/pay/pay_mid', parentNode: null };
    page.fire('auxclick', other);
    expect(other.href).toBe('https://pay.example.com/pay/pay_mid?utm_source=google&gclid=G1');
    // Clicking again adds nothing twice.
    page.fire('click', child);
    expect(link.href).toBe('https://pay.example.com/pay/pay_late?utm_source=google&gclid=G1');
  });

  it('a new landing with keys replaces the stored set as a whole (last touch); one without keys keeps it', () => {
    const items = new Map<string, string>();
    openPage('https://loja.example.com/?utm_source=facebook&utm_campaign=bf&fbclid=ABC', { items });
    expect(openPage('https://loja.example.com/blog', { items }).utm()).toEqual({ utm_source: 'facebook', utm_campaign: 'bf', fbclid: 'ABC' });
    expect(openPage('https://loja.example.com/?utm_source=tiktok&ttclid=T1', { items }).utm()).toEqual({ utm_source: 'tiktok', ttclid: 'T1' });
    expect(openPage('https://loja.example.com/carrinho', { items }).utm()).toEqual({ utm_source: 'tiktok', ttclid: 'T1' });
  });

  it('drops an expired set: nothing offered, links left alone', () => {
    const items = new Map<string, string>();
    const stored = Date.UTC(2026, 0, 1);
    openPage('https://loja.example.com/?utm_source=facebook', { items, now: stored });
    const before = openPage('https://loja.example.com/', { items, now: stored + 30 * DAY_MS - 1 });
    expect(before.utm()).toEqual({ utm_source: 'facebook' });
    const after = openPage('https://loja.example.com/', { items, now: stored + 30 * DAY_MS, links: ['https://pay.example.com/pay/pay_1'] });
    expect(after.utm()).toEqual({});
    after.listeners['DOMContentLoaded']!.forEach((listener) => listener({}));
    expect(after.links[0]!.href).toBe('https://pay.example.com/pay/pay_1');
    expect(items.has('orquestra_utm')).toBe(false);
  });

  it('falls back to a first-party cookie when localStorage throws', () => {
    const cookies = new Map<string, string>();
    const landing = openPage('http://loja.example.com/?utm_source=facebook&utm_campaign=black%20friday', { blocked: true, cookies, attributes: { 'data-days': '10' } });
    expect(landing.cookieWrites).toEqual(['orquestra_utm=utm_source%3Dfacebook%26utm_campaign%3Dblack%2Bfriday; Max-Age=864000; Path=/; SameSite=Lax']);
    const next = openPage('https://loja.example.com/produto', { blocked: true, cookies });
    expect(next.utm()).toEqual({ utm_source: 'facebook', utm_campaign: 'black friday' });
    // On https the cookie is Secure.
    const secure = openPage('https://loja.example.com/?utm_source=x', { blocked: true, cookies: new Map() });
    expect(secure.cookieWrites[0]).toMatch(/; Secure$/);
  });

  it('retention: data-days default 30, invalid values use the default, at most 400', () => {
    const expiry = (attributes: Record<string, string>) => {
      const items = new Map<string, string>();
      openPage('https://loja.example.com/?utm_source=x', { items, attributes, now: 0 });
      return (JSON.parse(items.get('orquestra_utm')!) as { exp: number }).exp / DAY_MS;
    };
    expect(expiry({})).toBe(30);
    expect(expiry({ 'data-days': 'abc' })).toBe(30);
    expect(expiry({ 'data-days': '-5' })).toBe(30);
    expect(expiry({ 'data-days': '90' })).toBe(90);
    expect(expiry({ 'data-days': '10000' })).toBe(400);
  });

  it('withUtm(url) adds the stored keys to an address without tracking keys, on any host; utm() is a copy; window.Orquestra is merged', () => {
    const cardFields = () => undefined;
    const page = openPage('https://loja.example.com/?utm_source=facebook&utm_campaign=bf', { orquestra: { cardFields } });
    expect(page.window.Orquestra!['cardFields']).toBe(cardFields);
    expect(page.withUtm('https://wa.me/5511999999999?text=oi')).toBe('https://wa.me/5511999999999?text=oi&utm_source=facebook&utm_campaign=bf');
    expect(page.withUtm('https://pay.example.com/pay/pay_1?utm_campaign=own')).toBe('https://pay.example.com/pay/pay_1?utm_campaign=own');
    expect(page.withUtm('/checkout')).toBe('https://loja.example.com/checkout?utm_source=facebook&utm_campaign=bf');
    expect(page.withUtm('http://[bad')).toBe('http://[bad');
    const copy = (page.window.Orquestra as { utm(): Record<string, string> }).utm();
    copy['utm_source'] = 'changed';
    expect(page.utm()).toEqual({ utm_source: 'facebook', utm_campaign: 'bf' });
    // Nothing stored: addresses unchanged (only normalized).
    expect(openPage('https://loja.example.com/').withUtm('https://pay.example.com/pay/pay_1')).toBe('https://pay.example.com/pay/pay_1');
  });

  it('is small and dependency-free', () => {
    expect(SCRIPT.length).toBeLessThan(6000);
    expect(SCRIPT).not.toMatch(/\bimport\b|\brequire\(|fetch\(|XMLHttpRequest/);
  });
});
