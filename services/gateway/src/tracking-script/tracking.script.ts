import { TRACKING_KEYS } from '../schemas/tracking.schema';

/** Where the script keeps the stored set: the localStorage key and, as a fallback, the cookie name. */
export const TRACKING_STORAGE_KEY = 'orquestra_utm';
/** Retention when the tag has no (valid) data-days. */
export const DEFAULT_TRACKING_DAYS = 30;
/** Browsers cap a cookie's lifetime at 400 days; the same bound applies to localStorage here. */
export const MAX_TRACKING_DAYS = 400;

/**
 * GET /v1/tracking.js: the merchant-site script of spec §4, dependency-free ES2017.
 *
 *   <script defer src="https://api.<domain>/v1/tracking.js" data-hosts="pay.loja.com.br" data-days="30"></script>
 *
 * - On load it reads the 13 tracking keys from the landing address. When the address brings any,
 *   they replace the stored set as a whole (last touch: a new campaign's click is the one that
 *   led to the sale; keys of the old campaign are not mixed in) and the retention starts again.
 *   An address without any key leaves the stored set as it is. Values over 500 characters or
 *   empty are ignored (the API would refuse them).
 * - Stored first-party: localStorage `orquestra_utm` = {"v":{…keys},"exp":<epoch ms>}; when
 *   localStorage throws (blocked, private mode), the cookie `orquestra_utm` (the keys as a query
 *   string, Max-Age = data-days, path /, SameSite=Lax). Expired sets are dropped when read.
 *   With both blocked the set still lives for this page.
 * - Payment hosts: the platform's own payment base (PAY_BASE_URL, injected when served: its host
 *   and path) plus each `data-hosts` entry (a host, optionally with :port and a /path). Links to
 *   them (`<a href>`) get the whole stored set, on DOMContentLoaded and again on click/auxclick
 *   for links added later; a link that already carries any of the 13 keys (whatever its value) is
 *   left whole, none of the stored keys added: its own attribution wins and campaigns are never
 *   mixed (an e-mail link's utm_source does not get an ad's fbclid).
 * - `window.Orquestra.utm()` answers a copy of the stored set; `window.Orquestra.withUtm(url)`
 *   answers the absolute `url` by the same rule (any host: the merchant asked for it): with the
 *   stored set when it has no tracking key, as it is (absolute) when it has one, or `url`
 *   unchanged when it cannot be parsed. Merged into an existing `window.Orquestra` (the card
 *   fields script uses the same object).
 */
export function trackingScript(payBaseUrl: string): string {
  const payBase = new URL(payBaseUrl);
  const ownHost = `${payBase.host}${payBase.pathname.replace(/\/+$/, '')}`;
  return `/* Orquestra tracking ${ownHost} */
(function () {
  'use strict';
  var KEYS = ${JSON.stringify(TRACKING_KEYS)};
  var NAME = ${JSON.stringify(TRACKING_STORAGE_KEY)};
  var MAX_VALUE = 500;
  var DAY_MS = 86400000;
  var script = document.currentScript;
  var attribute = function (name) { return (script && script.getAttribute(name)) || ''; };
  var daysAttribute = Number(attribute('data-days'));
  var days = daysAttribute > 0 ? Math.min(daysAttribute, ${MAX_TRACKING_DAYS}) : ${DEFAULT_TRACKING_DAYS};

  /** "host[:port][/path]" → { host, path }; entries without a port match the host on any port. */
  var target = function (entry) {
    var text = String(entry).trim().toLowerCase().replace(/^https?:\\/\\//, '');
    var slash = text.indexOf('/');
    var host = slash < 0 ? text : text.slice(0, slash);
    var path = slash < 0 ? '' : text.slice(slash).replace(/\\/+$/, '');
    return host ? { host: host, path: path } : null;
  };
  var targets = [${JSON.stringify(ownHost)}].concat(attribute('data-hosts').split(',')).map(target).filter(Boolean);

  var isPaymentLink = function (url) {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
    return targets.some(function (t) {
      var sameHost = t.host.indexOf(':') >= 0 ? url.host.toLowerCase() === t.host : url.hostname.toLowerCase() === t.host;
      return sameHost && (!t.path || url.pathname === t.path || url.pathname.indexOf(t.path + '/') === 0);
    });
  };

  /** The tracking keys of a query string: known keys only, first value, 1 to 500 characters. */
  var keysOf = function (search) {
    var params = new URLSearchParams(search);
    var found = {};
    KEYS.forEach(function (key) {
      var value = params.get(key);
      if (value && value.length <= MAX_VALUE) found[key] = value;
    });
    return found;
  };
  var isEmpty = function (set) { return Object.keys(set).length === 0; };

  var readCookie = function () {
    var prefix = NAME + '=';
    var parts = (document.cookie || '').split(';');
    for (var i = 0; i < parts.length; i++) {
      var part = parts[i].trim();
      if (part.indexOf(prefix) === 0) {
        try { return keysOf(decodeURIComponent(part.slice(prefix.length))); } catch (e) { return {}; }
      }
    }
    return {};
  };
  var writeCookie = function (set) {
    var value = encodeURIComponent(new URLSearchParams(set).toString());
    document.cookie = NAME + '=' + value + '; Max-Age=' + Math.round(days * 86400) + '; Path=/; SameSite=Lax' + (location.protocol === 'https:' ? '; Secure' : '');
  };

  var read = function () {
    try {
      var raw = window.localStorage.getItem(NAME);
      if (raw) {
        var entry = JSON.parse(raw);
        if (entry && typeof entry.exp === 'number' && entry.exp > Date.now() && entry.v && typeof entry.v === 'object') {
          return keysOf(new URLSearchParams(entry.v).toString());
        }
        window.localStorage.removeItem(NAME);
      }
      return {};
    } catch (e) {
      return readCookie();
    }
  };
  var write = function (set) {
    try {
      window.localStorage.setItem(NAME, JSON.stringify({ v: set, exp: Date.now() + days * DAY_MS }));
    } catch (e) {
      try { writeCookie(set); } catch (ignored) { /* storage blocked: this page keeps the set */ }
    }
  };

  var landing = keysOf(location.search);
  var stored = isEmpty(landing) ? read() : landing;
  if (!isEmpty(landing)) write(landing);

  var utm = function () { return Object.assign({}, stored); };
  var withUtm = function (url) {
    var parsed;
    try { parsed = new URL(String(url), location.href); } catch (e) { return url; }
    // A link that carries any tracking key of its own keeps its attribution whole: campaigns are
    // never mixed (an e-mail link's utm_source with an ad's click id).
    if (KEYS.some(function (key) { return parsed.searchParams.has(key); })) return parsed.toString();
    Object.keys(stored).forEach(function (key) { parsed.searchParams.append(key, stored[key]); });
    return parsed.toString();
  };

  var decorate = function (link) {
    if (!link || !link.href || isEmpty(stored)) return;
    var url;
    try { url = new URL(link.href, location.href); } catch (e) { return; }
    if (!isPaymentLink(url)) return;
    var decorated = withUtm(url.toString());
    if (decorated !== link.href) link.href = decorated;
  };
  var decorateAll = function () { Array.prototype.forEach.call(document.querySelectorAll('a[href]'), decorate); };
  var onClick = function (event) {
    var node = event.target;
    while (node && node.nodeType === 1 && node.tagName !== 'A') node = node.parentNode;
    if (node && node.tagName === 'A') decorate(node);
  };

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', decorateAll);
  else decorateAll();
  document.addEventListener('click', onClick, true);
  document.addEventListener('auxclick', onClick, true);

  var namespace = (window.Orquestra = window.Orquestra || {});
  namespace.utm = utm;
  namespace.withUtm = withUtm;
})();
`;
}
