import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A demo merchant site for the card fields (docs/cards.md "Card fields"), on an origin of its own
 * (http://127.0.0.1:<port>, while the platform is http://localhost:<gateway port>):
 *   GET  /       a checkout page that loads the platform's /v1/cards/fields.js and mounts the fields
 *   POST /save   the merchant's own server side: saves the tok_… with POST /v1/cards and its key
 * The page reads the publishable key and the script address from GET /v1/cards/config with the
 * merchant's key, as a real merchant's server would. The card number never reaches this server.
 *
 * And for the tracking script (docs/tracking.md), two pages that load /v1/tracking.js with
 * data-hosts and data-days:
 *   GET  /loja       a landing page (open it with ?utm_source=…&fbclid=…); its link goes to /checkout,
 *                    passing on `payment` and `email_payment` when given
 *   GET  /checkout   links to the payment pages of `payment` and `email_payment` (ids of this
 *                    merchant's payments; their payment_url read with the merchant's key), the
 *                    second as an e-mail campaign link that has its own utm_source, plus a link to a
 *                    custom payment domain and one to another site
 */
export interface DemoMerchant {
  url: string;
  server: Server;
  close(): Promise<void>;
}

interface Config {
  script: string;
  publishable_key: string;
}

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

function page(config: Config): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Loja Demo · pagamento</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;background:#f3f5f8;color:#1c2733;margin:0}
main{max-width:460px;margin:32px auto;background:#fff;border-radius:10px;padding:24px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.3rem;margin:0 0 4px}p.note{color:#4a5663;margin:0 0 16px;font-size:.9rem}
label{display:block;font-size:.85rem;font-weight:600;margin-bottom:4px}
#holder{width:100%;box-sizing:border-box;padding:10px 12px;font:inherit;border:1px solid #b8c2cc;border-radius:6px;margin-bottom:12px}
button{width:100%;padding:12px;font:inherit;font-weight:600;color:#fff;background:#2f6fde;border:0;border-radius:6px;cursor:pointer;margin-top:8px}
pre{background:#f6f8fa;padding:10px;border-radius:6px;white-space:pre-wrap;word-break:break-all;font-size:.8rem}
.error{color:#c62828}
</style></head>
<body><main>
<h1>Loja Demo</h1>
<p class="note">Página de exemplo de um lojista (outro site). Os campos do cartão abaixo vêm do Orquestra, num iframe: esta página nunca vê o número.</p>
<label for="holder">Nome impresso no cartão</label>
<input id="holder" value="MARIA DA SILVA" autocomplete="cc-name">
<div id="card-fields"></div>
<button id="pay" type="button">Salvar cartão</button>
<pre id="result" aria-live="polite"></pre>
</main>
<script src="${escapeHtml(config.script)}"></script>
<script>
var fields = Orquestra.cardFields({ publishableKey: ${JSON.stringify(config.publishable_key)}, container: '#card-fields' });
var result = document.getElementById('result');
window.demo = { fields: fields, tokenized: null, saved: null, error: null };
document.getElementById('pay').addEventListener('click', function () {
  result.className = '';
  result.textContent = 'Validando…';
  fields.tokenize().then(function (card) {
    window.demo.tokenized = card;
    result.textContent = 'Token: ' + JSON.stringify(card, null, 2);
    return fetch('/save', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ token: card.token, holder_name: document.getElementById('holder').value }) })
      .then(function (response) { return response.json(); })
      .then(function (saved) { window.demo.saved = saved; result.textContent += '\\nCartão salvo: ' + JSON.stringify(saved, null, 2); });
  }, function (error) {
    window.demo.error = { message: error.message, errors: error.errors || [] };
    result.className = 'error';
    result.textContent = error.message;
  });
});
</script>
</body></html>`;
}

/** Payment hosts besides the platform's own: a custom payment domain of this shop (not served). */
const TRACKING_HOSTS = 'pay.loja.example,checkout.x.example';

function trackingTag(platformBaseUrl: string): string {
  return `<script defer src="${escapeHtml(`${platformBaseUrl}/v1/tracking.js`)}" data-hosts="${TRACKING_HOSTS}" data-days="30"></script>`;
}

const SHOP_STYLE = `<style>
body{font:16px/1.5 system-ui,sans-serif;background:#fff7ef;color:#1c2733;margin:0}
header{background:#1c2733;color:#fff;padding:14px 24px;font-weight:700;letter-spacing:.02em}
main{max-width:560px;margin:32px auto;background:#fff;border-radius:10px;padding:24px;box-shadow:0 1px 4px rgba(0,0,0,.08)}
h1{font-size:1.5rem;margin:0 0 8px}p{margin:0 0 16px;color:#4a5663}
a.buy{display:block;text-align:center;padding:12px;margin:10px 0;font-weight:600;color:#fff;background:#e8590c;border-radius:6px;text-decoration:none}
a.plain{display:block;margin:8px 0;color:#2f6fde}
code{font-size:.75rem;word-break:break-all;color:#4a5663}
</style>`;

function landingPage(platformBaseUrl: string, next: string): string {
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Loja Demo · Black Friday</title>${SHOP_STYLE}
${trackingTag(platformBaseUrl)}
</head>
<body><header>Loja Demo</header><main>
<h1>Black Friday: tênis de corrida com 40% de desconto</h1>
<p>Página de entrada de uma campanha. O script de rastreamento do Orquestra guarda as UTMs e os ids de clique deste endereço neste site.</p>
<a class="buy" id="to-checkout" href="${escapeHtml(next)}">Quero comprar</a>
</main></body></html>`;
}

function checkoutPage(platformBaseUrl: string, links: { payUrl: string; emailPayUrl: string }): string {
  const link = (id: string, cls: string, href: string, text: string) =>
    href ? `<a class="${cls}" id="${id}" href="${escapeHtml(href)}">${text}</a><code>${escapeHtml(href)}</code>` : '';
  return `<!doctype html>
<html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Loja Demo · finalizar compra</title>${SHOP_STYLE}
${trackingTag(platformBaseUrl)}
</head>
<body><header>Loja Demo</header><main>
<h1>Finalizar compra</h1>
<p>Os links para a página de pagamento levam as UTMs guardadas (o endereço mostrado abaixo de cada um é o do HTML, antes do script).</p>
${link('pay', 'buy', links.payUrl, 'Pagar agora')}
${link('pay-email', 'buy', links.emailPayUrl ? `${links.emailPayUrl}?utm_source=newsletter` : '', 'Pagar pelo link do e-mail')}
${link('custom-host', 'plain', 'https://pay.loja.example/pay_demo', 'Pagar no domínio da loja')}
${link('other-site', 'plain', 'https://www.example.org/blog', 'Blog (outro site)')}
</main></body></html>`;
}

export async function startDemoMerchant(options: { port: number; platformBaseUrl: string; apiKey: string }): Promise<DemoMerchant> {
  const api = (path: string, init: RequestInit = {}) =>
    fetch(`${options.platformBaseUrl}${path}`, {
      ...init,
      headers: { authorization: `Bearer ${options.apiKey}`, 'content-type': 'application/json', ...(init.headers as Record<string, string> | undefined) },
      signal: AbortSignal.timeout(10_000),
    });

  const send = (res: ServerResponse, status: number, type: string, body: string) => {
    res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, 'cache-control': 'no-store' });
    res.end(body);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://demo');
      if (req.method === 'GET' && url.pathname === '/') {
        const answer = await api('/v1/cards/config');
        if (!answer.ok) return send(res, 502, 'text/plain', `GET /v1/cards/config answered ${answer.status}`);
        return send(res, 200, 'text/html', page((await answer.json()) as Config));
      }
      if (req.method === 'GET' && url.pathname === '/loja') {
        const next = new URLSearchParams();
        for (const name of ['payment', 'email_payment']) {
          const value = url.searchParams.get(name);
          if (value) next.set(name, value);
        }
        return send(res, 200, 'text/html', landingPage(options.platformBaseUrl, `/checkout${next.size > 0 ? `?${next.toString()}` : ''}`));
      }
      if (req.method === 'GET' && url.pathname === '/checkout') {
        // The payment links as the merchant's server knows them: payment_url of its own payments.
        const paymentUrl = async (name: string): Promise<string> => {
          const id = url.searchParams.get(name) ?? '';
          if (!/^pay_[A-Za-z0-9]+$/.test(id)) return '';
          const answer = await api(`/v1/payments/${id}`);
          return answer.ok ? String(((await answer.json()) as { payment_url?: string }).payment_url ?? '') : '';
        };
        return send(res, 200, 'text/html', checkoutPage(options.platformBaseUrl, { payUrl: await paymentUrl('payment'), emailPayUrl: await paymentUrl('email_payment') }));
      }
      if (req.method === 'POST' && url.pathname === '/save') {
        let raw = '';
        for await (const chunk of req) raw += String(chunk);
        const { token, holder_name } = JSON.parse(raw || '{}') as { token?: string; holder_name?: string };
        const answer = await api('/v1/cards', {
          method: 'POST',
          body: JSON.stringify({ vault_token: token, holder_name, customer: { name: 'Maria da Silva', document: '529.982.247-25', email: 'maria@exemplo.com.br' } }),
        });
        return send(res, answer.status, 'application/json', await answer.text());
      }
      send(res, 404, 'text/plain', 'not found');
    })().catch(() => send(res, 500, 'text/plain', 'demo merchant failed'));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, server, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
