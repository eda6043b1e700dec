import { escapeHtml } from '../payment-page/html';
import { CARD_CHECKS_JS } from './card-checks.script';

/** JSON for an inline script: `<`, `>` and `&` escaped so that no value can close the script element. */
function inlineJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

const FRAME_STYLE = `
*{box-sizing:border-box}body{margin:0;padding:2px;font:16px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1c2733;background:transparent}
.field{margin-bottom:10px}.row{display:flex;gap:10px}.row .field{flex:1}
label{display:block;font-size:.85rem;font-weight:600;margin-bottom:4px}
input{width:100%;padding:10px 12px;font:inherit;border:1px solid #b8c2cc;border-radius:6px;background:#fff;color:inherit}
input:focus{outline:3px solid #9cc3ff;outline-offset:0;border-color:#2f6fde}
input[aria-invalid=true]{border-color:#c62828}
.error{min-height:1.1em;margin:3px 0 0;font-size:.8rem;color:#c62828}
.brand{font-size:.75rem;color:#4a5663;margin-left:6px;font-weight:400}
.refused{padding:12px;border:1px solid #c62828;border-radius:6px;color:#8e1c1c;background:#fdecea}
`;

/**
 * The card fields' page (GET /cards/frame), on the platform's origin, framed by `parentOrigin`
 * only (the CSP's frame-ancestors). It talks only to that origin and only to its parent window;
 * the inputs' values leave it only in its own POST /v1/cards/tokenize.
 */
export function renderFramePage(options: { publishableKey: string; parentOrigin: string; nonce: string }): string {
  const { nonce } = options;
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Dados do cartão</title><style nonce="${nonce}">${FRAME_STYLE}</style></head>
<body>
<form id="card" novalidate autocomplete="on">
  <div class="field">
    <label for="number">Número do cartão <span class="brand" id="brand" aria-live="polite"></span></label>
    <input id="number" name="cardnumber" inputmode="numeric" autocomplete="cc-number" maxlength="23" placeholder="0000 0000 0000 0000" aria-describedby="number-error" aria-invalid="false" spellcheck="false">
    <p class="error" id="number-error" role="alert"></p>
  </div>
  <div class="row">
    <div class="field">
      <label for="expiry">Validade</label>
      <input id="expiry" name="cc-exp" inputmode="numeric" autocomplete="cc-exp" maxlength="7" placeholder="MM/AA" aria-describedby="expiry-error" aria-invalid="false">
      <p class="error" id="expiry-error" role="alert"></p>
    </div>
    <div class="field">
      <label for="cvc">Código de segurança</label>
      <input id="cvc" name="cvc" inputmode="numeric" autocomplete="cc-csc" maxlength="4" placeholder="CVC" aria-describedby="cvc-error" aria-invalid="false">
      <p class="error" id="cvc-error" role="alert"></p>
    </div>
  </div>
</form>
<script nonce="${nonce}">
(function () {
'use strict';
var PARENT = ${inlineJson(options.parentOrigin)};
var PK = ${inlineJson(options.publishableKey)};
var TAG = 'orquestra-card-fields';
${CARD_CHECKS_JS}
var BRAND_NAMES = { 'visa': 'Visa', 'mastercard': 'Mastercard', 'elo': 'Elo', 'hipercard': 'Hipercard', 'american-express': 'American Express', 'diners-club': 'Diners Club', 'discover': 'Discover', 'jcb': 'JCB' };
var number = document.getElementById('number');
var expiry = document.getElementById('expiry');
var cvc = document.getElementById('cvc');
var busy = false;

function tell(message) { if (window.parent !== window) window.parent.postMessage(message, PARENT); }
function show(field, message) {
  var input = document.getElementById(field);
  document.getElementById(field + '-error').textContent = message || '';
  input.setAttribute('aria-invalid', message ? 'true' : 'false');
}
function groups(digits, brand) {
  var sizes = brand === 'american-express' ? [4, 6, 5] : brand === 'diners-club' && digits.length === 14 ? [4, 6, 4] : [4, 4, 4, 4, 3];
  var out = [];
  var at = 0;
  for (var i = 0; i < sizes.length && at < digits.length; i++) { out.push(digits.slice(at, at + sizes[i])); at += sizes[i]; }
  return out.join(' ');
}
number.addEventListener('input', function () {
  var digits = cfDigits(number.value).slice(0, 19);
  var brand = cfBrand(digits);
  number.value = groups(digits, brand);
  document.getElementById('brand').textContent = brand ? BRAND_NAMES[brand] : '';
  cvc.maxLength = cfCvcLength(brand);
  show('number', '');
});
expiry.addEventListener('input', function (event) {
  var digits = cfDigits(expiry.value).slice(0, 6);
  var deleting = event.inputType && event.inputType.indexOf('delete') === 0;
  expiry.value = digits.length > 2 || (digits.length === 2 && !deleting) ? digits.slice(0, 2) + '/' + digits.slice(2) : digits;
  show('expiry', '');
});
cvc.addEventListener('input', function () { cvc.value = cfDigits(cvc.value).slice(0, 4); show('cvc', ''); });
number.addEventListener('blur', function () { if (number.value) show('number', cfCheckNumber(number.value)); });
expiry.addEventListener('blur', function () { if (expiry.value) show('expiry', cfParseExpiry(expiry.value).error); });
document.getElementById('card').addEventListener('submit', function (event) { event.preventDefault(); });

function check() {
  var errors = [];
  var numberError = cfCheckNumber(number.value);
  var brand = cfBrand(cfDigits(number.value));
  var exp = cfParseExpiry(expiry.value);
  var cvcError = cfCheckCvc(cvc.value, brand);
  if (numberError) errors.push({ field: 'number', message: numberError });
  if (exp.error) errors.push({ field: 'expiry', message: exp.error });
  if (cvcError) errors.push({ field: 'cvc', message: cvcError });
  show('number', numberError); show('expiry', exp.error); show('cvc', cvcError);
  return { errors: errors, exp: exp };
}

var SERVER_FIELDS = { number: 'number', exp_month: 'expiry', exp_year: 'expiry', cvc: 'cvc' };
function tokenize(id, origin) {
  if (busy) return tell({ source: TAG, type: 'result', id: id, ok: false, errors: [{ field: 'network', message: 'Aguarde: o cartão já está sendo validado.' }] });
  var checked = check();
  if (checked.errors.length) return tell({ source: TAG, type: 'result', id: id, ok: false, errors: checked.errors });
  busy = true;
  fetch('/v1/cards/tokenize', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    credentials: 'omit',
    body: JSON.stringify({ publishable_key: PK, origin: origin, number: cfDigits(number.value), exp_month: checked.exp.month, exp_year: checked.exp.year, cvc: cfDigits(cvc.value) })
  }).then(function (response) {
    return response.json().then(function (body) { return { ok: response.ok, body: body }; }, function () { return { ok: false, body: null }; });
  }).then(function (answer) {
    busy = false;
    if (answer.ok && answer.body && answer.body.token) {
      var b = answer.body;
      return tell({ source: TAG, type: 'result', id: id, ok: true, card: { token: b.token, brand: b.brand, last4: b.last4, exp_month: b.exp_month, exp_year: b.exp_year } });
    }
    var error = answer.body && answer.body.error ? answer.body.error : { message: 'Não foi possível validar o cartão agora. Tente de novo.' };
    var field = SERVER_FIELDS[error.param] || error.param || 'network';
    if (SERVER_FIELDS[error.param]) show(field, error.message);
    tell({ source: TAG, type: 'result', id: id, ok: false, errors: [{ field: field, message: String(error.message) }] });
  }, function () {
    busy = false;
    tell({ source: TAG, type: 'result', id: id, ok: false, errors: [{ field: 'network', message: 'Sem conexão com o servidor de pagamentos. Tente de novo.' }] });
  });
}

window.addEventListener('message', function (event) {
  if (event.origin !== PARENT || event.source !== window.parent) return;
  var data = event.data;
  if (!data || data.source !== TAG) return;
  if (data.type === 'tokenize') tokenize(data.id, event.origin);
  else if (data.type === 'focus') number.focus();
});

// The body's own height (the document's is never below the iframe's current height).
function resize() { tell({ source: TAG, type: 'resize', height: Math.ceil(document.body.getBoundingClientRect().height) + 4 }); }
if (window.ResizeObserver) new ResizeObserver(resize).observe(document.body);
tell({ source: TAG, type: 'ready' });
resize();
})();
</script>
</body></html>`;
}

/**
 * The answer to a site not allowed to show the card fields (or an unknown key): no inputs, a
 * message, and a `refused` note to whoever framed it (nothing secret in it, so to any origin).
 */
export function renderRefusedFramePage(options: { message: string; nonce: string }): string {
  const { nonce } = options;
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><title>Campos de cartão indisponíveis</title><style nonce="${nonce}">${FRAME_STYLE}</style></head>
<body><p class="refused" role="alert">${escapeHtml(options.message)}</p>
<script nonce="${nonce}">
if (window.parent !== window) {
  window.parent.postMessage({ source: 'orquestra-card-fields', type: 'refused', message: ${inlineJson(options.message)} }, '*');
  window.parent.postMessage({ source: 'orquestra-card-fields', type: 'resize', height: Math.ceil(document.body.getBoundingClientRect().height) + 4 }, '*');
}
</script></body></html>`;
}
