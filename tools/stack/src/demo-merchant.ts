import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A demo merchant site for the card fields (docs/cards.md "Card fields"), on an origin of its own
 * (http://127.0.0.1:<port>, while the platform is http://localhost:<gateway port>):
 *   GET  /       a checkout page that loads the platform's /v1/cards/fields.js and mounts the fields
 *   POST /save   the merchant's own server side: saves the tok_… with POST /v1/cards and its key
 * The page reads the publishable key and the script address from GET /v1/cards/config with the
 * merchant's key, as a real merchant's server would. The card number never reaches this server.
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
      if (req.method === 'POST' && url.pathname === '/save') {
        let raw = '';
        for await (const chunk of req) raw += String(chunk);
        const { token, holder_name } = JSON.parse(raw || '{}') as { token?: string; holder_name?: string };
        const answer = await api('/v1/cards', {
          method: 'POST',
          body: JSON.stringify({ vault_token: token, holder_name, customer: { name: 'Maria da Silva', document: '123.456.789-09', email: 'maria@exemplo.com.br' } }),
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
