/**
 * GET /v1/cards/fields.js: the card fields' loader for the merchant's page (spec §4 Saved cards).
 * Dependency-free ES5. `Orquestra.cardFields({ publishableKey, container })` mounts an iframe of
 * the platform's origin (where the script was loaded from) whose page holds the number, expiry
 * and security code inputs; the merchant's page never sees them. The two talk by postMessage,
 * each checking the other's origin and window. `tokenize()` resolves
 * `{ token, brand, last4, exp_month, exp_year }` or rejects with an Error whose `errors` lists
 * `{ field, message }` in Portuguese (fields: number, expiry, cvc, origin, publishable_key, network).
 */
export const FIELDS_SCRIPT = String.raw`/* Orquestra card fields */
(function () {
  'use strict';
  var current = document.currentScript;
  var PLATFORM = current && current.src ? new URL(current.src, location.href).origin : '';
  var TAG = 'orquestra-card-fields';

  function fieldsError(errors) {
    var error = new Error(errors.map(function (e) { return e.message; }).join(' '));
    error.name = 'CardFieldsError';
    error.errors = errors;
    return error;
  }

  function cardFields(options) {
    options = options || {};
    var pk = options.publishableKey;
    if (typeof pk !== 'string' || !/^pk_(test|live)_/.test(pk)) throw new Error('Orquestra.cardFields: informe publishableKey (pk_test_… ou pk_live_…, de GET /v1/cards/config).');
    var container = typeof options.container === 'string' ? document.querySelector(options.container) : options.container;
    if (!container || !container.appendChild) throw new Error('Orquestra.cardFields: informe container (um elemento ou um seletor CSS).');
    if (!PLATFORM) throw new Error('Orquestra.cardFields: carregue o script pela tag <script src="…/v1/cards/fields.js">.');

    var iframe = document.createElement('iframe');
    iframe.src = PLATFORM + '/cards/frame?pk=' + encodeURIComponent(pk) + '&origin=' + encodeURIComponent(location.origin);
    iframe.title = 'Dados do cartão';
    iframe.setAttribute('allow', 'payment');
    iframe.style.border = '0';
    iframe.style.width = '100%';
    iframe.style.height = '230px';
    iframe.style.display = 'block';

    var pending = {};
    var sequence = 0;
    var refused = null;
    var readyResolve;
    var readyReject;
    var ready = new Promise(function (resolve, reject) { readyResolve = resolve; readyReject = reject; });
    ready.catch(function () {});

    function onMessage(event) {
      if (event.origin !== PLATFORM || event.source !== iframe.contentWindow) return;
      var data = event.data;
      if (!data || data.source !== TAG) return;
      if (data.type === 'ready') readyResolve();
      else if (data.type === 'refused') {
        refused = fieldsError([{ field: 'origin', message: String(data.message || 'Este site não está autorizado a mostrar os campos de cartão.') }]);
        readyReject(refused);
      } else if (data.type === 'resize' && typeof data.height === 'number') iframe.style.height = Math.min(Math.max(data.height, 80), 600) + 'px';
      else if (data.type === 'result' && pending[data.id]) {
        var call = pending[data.id];
        delete pending[data.id];
        if (data.ok) call.resolve(data.card);
        else call.reject(fieldsError(Array.isArray(data.errors) ? data.errors : [{ field: 'network', message: 'Não foi possível validar o cartão. Tente de novo.' }]));
      }
    }
    window.addEventListener('message', onMessage);
    container.appendChild(iframe);

    return {
      element: iframe,
      ready: ready,
      tokenize: function () {
        if (refused) return Promise.reject(refused);
        return ready.then(function () {
          return new Promise(function (resolve, reject) {
            var id = ++sequence;
            pending[id] = { resolve: resolve, reject: reject };
            iframe.contentWindow.postMessage({ source: TAG, type: 'tokenize', id: id }, PLATFORM);
          });
        });
      },
      focus: function () {
        ready.then(function () { iframe.contentWindow.postMessage({ source: TAG, type: 'focus' }, PLATFORM); });
      },
      destroy: function () {
        window.removeEventListener('message', onMessage);
        if (iframe.parentNode) iframe.parentNode.removeChild(iframe);
      }
    };
  }

  window.Orquestra = window.Orquestra || {};
  window.Orquestra.cardFields = cardFields;
})();
`;
