/**
 * The card checks the card fields run in the browser, as plain ES5 source (inlined in the frame
 * page, no dependency). The vault checks again on tokenize: these only answer the buyer at once.
 * The spec evaluates this very text, so what is tested is what ships.
 *
 * Defines: cfDigits, cfLuhn, cfBrand, cfLengths, cfCvcLength, cfCheckNumber, cfParseExpiry, cfCheckCvc.
 */
export const CARD_CHECKS_JS = String.raw`
function cfDigits(value) { return String(value || '').replace(/\D/g, ''); }

function cfLuhn(digits) {
  var sum = 0;
  var double = false;
  for (var i = digits.length - 1; i >= 0; i--) {
    var d = digits.charCodeAt(i) - 48;
    if (double) { d *= 2; if (d > 9) d -= 9; }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}

// Brand by BIN. Elo and Hipercard ranges overlap Visa, Mastercard and Discover: they come first.
var CF_BRANDS = [
  ['elo', /^(401178|401179|431274|438935|451416|457393|457631|457632|504175|627780|636297|636368|50669[9]|5067[0-6]\d|50677[0-8]|509\d{3}|65003[1-3]|65003[5-9]|65004\d|65005[01]|65040[5-9]|6504[1-3]\d|65048[5-9]|65049\d|6505[0-2]\d|65053[0-8]|65054[1-9]|6505[5-8]\d|65059[0-8]|65070\d|65071[0-8]|65072[0-7]|65090[1-9]|65091\d|650920|65165[2-9]|6516[67]\d|65500\d|65501\d|65502[1-9]|6550[34]\d|65505[0-8])/],
  ['hipercard', /^(606282|384100|384140|384160)/],
  ['american-express', /^3[47]/],
  ['diners-club', /^3(0[0-5]|[689])/],
  ['jcb', /^35(2[89]|[3-8])/],
  ['visa', /^4/],
  ['mastercard', /^(5[1-5]|222[1-9]|22[3-9]\d|2[3-6]\d\d|27[01]\d|2720)/],
  ['discover', /^(6011|65|64[4-9])/]
];

function cfBrand(digits) {
  for (var i = 0; i < CF_BRANDS.length; i++) if (CF_BRANDS[i][1].test(digits)) return CF_BRANDS[i][0];
  return null;
}

function cfLengths(brand) {
  switch (brand) {
    case 'american-express': return [15];
    case 'diners-club': return [14, 16];
    case 'hipercard': return [13, 16, 19];
    case 'visa': return [13, 16, 19];
    case 'elo': case 'mastercard': return [16];
    default: return [16, 17, 18, 19];
  }
}

function cfCvcLength(brand) { return brand === 'american-express' ? 4 : 3; }

// null when valid, else the Portuguese message.
function cfCheckNumber(value) {
  var digits = cfDigits(value);
  if (!digits) return 'Informe o número do cartão.';
  var brand = cfBrand(digits);
  if (!brand) return 'Número de cartão não reconhecido. Confira os primeiros dígitos.';
  if (cfLengths(brand).indexOf(digits.length) < 0) return 'Número do cartão incompleto. Confira os dígitos.';
  if (!cfLuhn(digits)) return 'Número do cartão inválido. Confira os dígitos.';
  return null;
}

// "MM/AA" or "MM/AAAA" → { month, year, error }; now: a Date (the end of the month still counts).
function cfParseExpiry(value, now) {
  var match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(String(value || ''));
  if (!String(value || '').trim()) return { error: 'Informe a validade (MM/AA).' };
  if (!match) return { error: 'Validade inválida. Use MM/AA, por exemplo 12/30.' };
  var month = Number(match[1]);
  var year = Number(match[2]);
  if (year < 100) year += 2000;
  if (month < 1 || month > 12) return { error: 'Mês da validade inválido: use de 01 a 12.' };
  var current = now || new Date();
  var nowYear = current.getFullYear();
  var nowMonth = current.getMonth() + 1;
  if (year < nowYear || (year === nowYear && month < nowMonth)) return { error: 'Cartão vencido. Use um cartão dentro da validade.' };
  if (year > nowYear + 20) return { error: 'Ano da validade inválido.' };
  return { month: month, year: year, error: null };
}

function cfCheckCvc(value, brand) {
  var digits = cfDigits(value);
  var wanted = cfCvcLength(brand);
  if (!digits) return 'Informe o código de segurança.';
  if (digits.length !== String(value).trim().length || digits.length !== wanted) return 'O código de segurança tem ' + wanted + ' dígitos.';
  return null;
}
`;
