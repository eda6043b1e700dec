import { escapeHtml, safeUrl } from '../payment-page/html';
import type { OAuthAccess, OAuthMode } from './oauth.scopes';

/**
 * The pages of the authorization flow, in Portuguese: the consent page a merchant's owner sees
 * when an app asks for access, the "sign in first" page and the error page. Plain forms (no
 * script), labelled fields, keyboard-usable, narrow-screen friendly.
 */

const STYLE = `
  *{box-sizing:border-box}body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d2330}
  main{max-width:28rem;margin:2rem auto;padding:1.5rem;background:#fff;border-radius:12px;box-shadow:0 1px 4px rgba(0,0,0,.12)}
  h1{font-size:1.3rem;margin:.2rem 0 1rem}header{display:flex;gap:.75rem;align-items:center}
  header img{width:48px;height:48px;border-radius:8px;object-fit:cover;background:#eee}
  fieldset{border:1px solid #d5d9e0;border-radius:8px;margin:0 0 1rem;padding:.75rem 1rem}legend{font-weight:600;padding:0 .3rem}
  label{display:flex;gap:.5rem;align-items:flex-start;padding:.3rem 0;cursor:pointer}label small{display:block;color:#5a6475}
  .actions{display:flex;gap:.75rem;flex-wrap:wrap}button{font:inherit;padding:.6rem 1.2rem;border-radius:8px;border:1px solid #1f4fd1;cursor:pointer}
  button.primary{background:#1f4fd1;color:#fff}button.secondary{background:#fff;color:#1f4fd1}
  button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #f0a500;outline-offset:2px}
  .who{color:#5a6475;font-size:.9rem}a{color:#1f4fd1}
  @media (max-width:30rem){main{margin:0;border-radius:0;min-height:100vh}}
`;

function page(title: string, body: string): string {
  return `<!DOCTYPE html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">`
    + `<title>${escapeHtml(title)} · Orquestra</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

const ACCESS_TEXT: Record<OAuthAccess, { label: string; hint: string }> = {
  full: { label: 'Acesso total', hint: 'Como uma chave completa: pagamentos, reembolsos, clientes, webhooks e demais rotas da API.' },
  restricted: { label: 'Acesso restrito', hint: 'Como uma chave restrita: só cria pagamentos e consulta os que criou.' },
};
const MODE_TEXT: Record<OAuthMode, { label: string; hint: string }> = {
  test: { label: 'Teste', hint: 'Contas de teste: nenhum dinheiro real se move.' },
  live: { label: 'Produção', hint: 'Contas reais: cobranças de verdade.' },
};

export interface ConsentView {
  uid: string;
  action: string;
  appName: string;
  logoUrl?: string;
  merchantName: string;
  ownerEmail: string;
  accesses: OAuthAccess[];
  modes: OAuthMode[];
}

function choices<T extends string>(name: string, values: T[], text: Record<T, { label: string; hint: string }>): string {
  return values
    .map((value, index) => `<label><input type="radio" name="${name}" value="${value}"${index === 0 ? ' checked' : ''} required>`
      + `<span>${escapeHtml(text[value].label)}<small>${escapeHtml(text[value].hint)}</small></span></label>`)
    .join('');
}

export function renderConsentPage(view: ConsentView): string {
  const logo = safeUrl(view.logoUrl);
  return page(`Autorizar ${view.appName}`, `
    <header>${logo ? `<img src="${escapeHtml(logo)}" alt="">` : ''}<h1>${escapeHtml(view.appName)} quer acessar sua conta Orquestra</h1></header>
    <p class="who">Conta: <strong>${escapeHtml(view.merchantName)}</strong> · ${escapeHtml(view.ownerEmail)}</p>
    <form method="post" action="${escapeHtml(view.action)}/confirm">
      <fieldset><legend>Ambiente</legend>${choices('mode', view.modes, MODE_TEXT)}</fieldset>
      <fieldset><legend>Nível de acesso</legend>${choices('access', view.accesses, ACCESS_TEXT)}</fieldset>
      <p>Você pode revogar esta autorização a qualquer momento no painel, em Desenvolvedores → Apps OAuth.</p>
      <div class="actions"><button type="submit" class="primary">Autorizar</button>
      <button type="submit" class="secondary" formaction="${escapeHtml(view.action)}/abort">Recusar</button></div>
    </form>`);
}

export function renderSignInFirstPage(signInUrl: string): string {
  return page('Entre para autorizar', `
    <h1>Entre no painel para continuar</h1>
    <p>Para autorizar um app, entre com o e-mail e a senha do dono da conta e depois volte a esta página.</p>
    <p><a href="${escapeHtml(signInUrl)}">Entrar no painel</a></p>`);
}

export function renderOAuthErrorPage(message: string, extraHtml = ''): string {
  return page('Não foi possível continuar', `
    <h1>Não foi possível continuar</h1><p>${escapeHtml(message)}</p>${extraHtml}`);
}
