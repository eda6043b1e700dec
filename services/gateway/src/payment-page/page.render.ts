import { common, type paymentPage } from '@orquestra/contracts';
import { formatBrl } from '@orquestra/platform';
import { escapeHtml, formatDateTime, safeUrl } from './html';
import { PAGE_CSS, PAGE_JS } from './page.assets';

type Page = paymentPage.PaymentPage;

/** How the buyer reads each method; a method the page does not know yet shows by its code. */
const METHOD_LABELS: Record<string, string> = { pix: 'Pix', boleto: 'Boleto', card: 'Cartão de crédito' };
const methodLabel = (method: string): string => METHOD_LABELS[method] ?? method;

/** Statuses after which nothing changes for the buyer: the page stops polling and shows the end. */
const FINAL = new Set(['succeeded', 'partially_refunded', 'refunded', 'failed', 'canceled']);
export const isFinalStatus = (status: string): boolean => FINAL.has(status);

export interface RenderedPage {
  html: string;
  /** Origins the page loads images from (the QR image URL may be on the API's host). */
  imageOrigins: string[];
  /** The platform origin the card fields' iframe comes from, when the page mounts them (CSP frame-src). */
  frameOrigin?: string;
}

/**
 * The card fields on the page (card offered through them and the merchant's vault on): the
 * loader's URL (GET /v1/cards/fields.js on the platform's origin) and the merchant's publishable
 * key for the payment's mode. The card data goes from the iframe to the vault; the page's own
 * form posts only the tok_ it answered.
 */
export interface PageCardFields {
  scriptUrl: string;
  publishableKey: string;
}

/** The panel that changes with the payment's state (also sent alone to the polling script). */
export function renderPanel(page: Page, options: { formAction: string; error?: string; cardFields?: PageCardFields }): RenderedPage {
  const open = (body: string, images: string[] = []): RenderedPage => ({
    html: `<section id="panel" data-status="${escapeHtml(page.status)}">${options.error ? `<p class="error" role="alert">${escapeHtml(options.error)}</p>` : ''}${body}</section>`,
    imageOrigins: images,
  });
  switch (page.status) {
    case 'requires_method':
      return open(chooseMethod(page, options.formAction, options.cardFields));
    case 'pending':
      return pending(page, open);
    case 'processing':
      return open(`<p class="hint">Pagamento em processamento. Esta página se atualiza sozinha.</p>`);
    default:
      return open(finalState(page));
  }
}

function chooseMethod(page: Page, formAction: string, cardFields: PageCardFields | undefined): string {
  if (page.available_methods.length === 0) {
    return `<p class="error">Nenhuma forma de pagamento está disponível para este pagamento no momento. Tente novamente mais tarde ou fale com quem fez a cobrança.</p>`;
  }
  const until = formatDateTime(page.expires_at);
  const withFields = Boolean(cardFields) && page.available_methods.includes('card');
  const buttons = page.available_methods
    .map((method) =>
      method === 'card' && withFields
        ? // With the page's script, opens the card form below (the card fields) instead of posting
          // the choice; without it, posts card as before (a hosted checkout, where there is one).
          `<button type="submit" name="method" value="card" id="card-open" data-method="card" aria-expanded="false" aria-controls="card-pay">${escapeHtml(methodLabel(method))}</button>`
        : `<button type="submit" name="method" value="${escapeHtml(method)}" data-method="${escapeHtml(method)}">${escapeHtml(methodLabel(method))}</button>`,
    )
    .join('');
  // The card form: the fields' iframe, then the form posts method=card with the tok_ only.
  const cardForm =
    withFields && cardFields
      ? `<input type="hidden" name="method" value="card" id="card-method" disabled><input type="hidden" name="card_token" id="card-token" value="" disabled>` +
        `<div id="card-pay" class="card-pay" hidden data-pk="${escapeHtml(cardFields.publishableKey)}">` +
        `<h3>Pague com cartão de crédito</h3>` +
        `<div id="card-fields" aria-live="polite"></div>` +
        `<p class="error" id="card-error" role="alert" hidden></p>` +
        `<button type="button" class="button" id="card-submit">Pagar ${escapeHtml(formatBrl(page.amount))}</button>` +
        `<p class="hint">Os dados do cartão são digitados em um ambiente seguro e não passam por esta página.</p>` +
        `</div>`
      : '';
  return (
    `<h2 class="hint">Escolha como pagar</h2>` +
    `<form id="choose" method="post" action="${escapeHtml(formAction)}"><div class="methods">${buttons}</div>${cardForm}</form>` +
    (until ? `<p class="hint">Escolha até ${escapeHtml(until)} (horário de Brasília).</p>` : '')
  );
}

/** What the buyer reads about a declined card (the payment's failure_code, normalized by providers). */
const CARD_DECLINES: Record<string, string> = {
  card_declined: 'O banco emissor recusou o cartão.',
  insufficient_funds: 'O cartão não tem saldo ou limite suficiente.',
  expired_card: 'O cartão está vencido.',
  incorrect_cvc: 'O código de segurança (CVV) está incorreto.',
  lost_card: 'O banco emissor recusou o cartão.',
  stolen_card: 'O banco emissor recusou o cartão.',
  processing_error: 'Houve um erro ao processar o cartão.',
};

function pending(page: Page, open: (body: string, images?: string[]) => RenderedPage): RenderedPage {
  const action = page.next_action;
  const until = formatDateTime(page.expires_at);
  switch (action?.type) {
    case 'pix_qr': {
      // Our own public PNG first (same image everywhere: page, e-mail, chat); the provider's picture otherwise.
      const image = safeUrl(action.qr_code_url) ?? (action.qr_code_base64 ? `data:image/png;base64,${action.qr_code_base64.replace(/^data:image\/png;base64,/, '')}` : undefined);
      const origin = image && !image.startsWith('data:') ? new URL(image).origin : undefined;
      return open(
        `<h2 class="hint">Pague com Pix</h2>` +
          (image ? `<img class="qr" id="pix-qr" src="${escapeHtml(image)}" alt="QR Code Pix" width="240" height="240">` : '') +
          `<p class="hint">Abra o app do seu banco e escaneie o QR Code, ou use o Pix Copia e Cola:</p>` +
          `<textarea id="pix-code" readonly aria-label="Código Pix Copia e Cola">${escapeHtml(action.qr_code ?? '')}</textarea>` +
          `<button type="button" class="button" id="copy">Copiar código Pix</button>` +
          (until ? `<p class="hint">Válido até ${escapeHtml(until)} (horário de Brasília). Esta página mostra a confirmação assim que o pagamento for recebido.</p>` : ''),
        origin ? [origin] : [],
      );
    }
    case 'boleto': {
      const url = safeUrl(action.url);
      return open(
        `<h2 class="hint">Pague com boleto</h2>` +
          (action.digitable_line ? `<p class="hint">Linha digitável:</p><p class="line" id="digitable-line">${escapeHtml(action.digitable_line)}</p>` : '') +
          (url ? `<a class="button" id="boleto-link" href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">Abrir boleto</a>` : '') +
          (until ? `<p class="hint">Vencimento: ${escapeHtml(until)}.</p>` : ''),
      );
    }
    case 'redirect': {
      const url = safeUrl(action.url);
      return open(
        url
          ? `<p class="hint">Você será levado ao ambiente seguro de pagamento com cartão.</p><a class="button" id="redirect" href="${escapeHtml(url)}">Continuar para o pagamento</a>`
          : `<p class="error">O link de pagamento com cartão não está disponível. Recarregue a página.</p>`,
      );
    }
    default:
      return open(`<p class="hint">Aguardando a confirmação do pagamento. Esta página se atualiza sozinha.</p>`);
  }
}

function finalState(page: Page): string {
  const block = (ok: boolean, title: string, text: string) =>
    `<div class="final" id="final" data-final="${escapeHtml(page.status)}"><div class="icon ${ok ? 'ok' : 'bad'}" aria-hidden="true">${ok ? '✔' : '✖'}</div><h2>${escapeHtml(title)}</h2><p class="hint">${escapeHtml(text)}</p></div>`;
  switch (page.status) {
    case 'succeeded': {
      const when = formatDateTime(page.paid_at);
      return block(true, 'Pagamento confirmado', when ? `Recebemos seu pagamento em ${when}. Obrigado!` : 'Recebemos seu pagamento. Obrigado!');
    }
    case 'partially_refunded':
    case 'refunded':
      return block(true, 'Pagamento confirmado', page.status === 'refunded' ? 'Este pagamento foi reembolsado.' : 'Este pagamento foi reembolsado em parte.');
    case 'failed': {
      const decline = page.method === 'card' ? CARD_DECLINES[page.failure_code] ?? (page.failure_code ? CARD_DECLINES['card_declined'] : undefined) : undefined;
      return block(false, 'Pagamento não aprovado', `${decline ? `${decline} ` : ''}O pagamento não foi aprovado. Fale com quem fez a cobrança para tentar de novo.`);
    }
    case 'canceled':
      return page.failure_code === 'expired'
        ? block(false, 'Prazo encerrado', 'O prazo para pagar terminou e este pagamento foi cancelado. Peça um novo link a quem fez a cobrança.')
        : block(false, 'Pagamento cancelado', 'Este pagamento foi cancelado e não pode mais ser pago.');
    default:
      return block(false, 'Pagamento indisponível', 'Este pagamento não pode ser pago por esta página.');
  }
}

/** The whole document around a body; `nonce` authorizes the inline style and script under the CSP. */
export function renderDocument(options: { title: string; body: string; nonce: string; mode?: common.Mode; scriptUrl?: string }): string {
  const test = options.mode === common.Mode.MODE_TEST ? `<p class="test">Ambiente de teste: nenhum dinheiro real é movimentado.</p>` : '';
  return (
    `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<meta name="robots" content="noindex"><link rel="icon" href="data:,"><title>${escapeHtml(options.title)}</title><style nonce="${options.nonce}">${PAGE_CSS}</style></head>` +
    `<body><main>${test}${options.body}</main>` +
    (options.scriptUrl ? `<script nonce="${options.nonce}" src="${escapeHtml(options.scriptUrl)}"></script>` : '') +
    `<script nonce="${options.nonce}">${PAGE_JS}</script></body></html>`
  );
}

/** The payment page: amount, description and the state panel. */
export function renderPaymentPage(page: Page, options: { formAction: string; nonce: string; error?: string; cardFields?: PageCardFields }): RenderedPage {
  const panel = renderPanel(page, options);
  const fields = page.status === 'requires_method' && page.available_methods.includes('card') ? options.cardFields : undefined;
  const amount = formatBrl(page.amount);
  const body =
    `<h1>Pagamento</h1><p class="amount" id="amount">${escapeHtml(amount)}</p>` +
    (page.description ? `<p class="description" id="description">${escapeHtml(page.description)}</p>` : '') +
    panel.html;
  return {
    html: renderDocument({ title: `Pagamento de ${amount}`, body, nonce: options.nonce, mode: page.mode, ...(fields ? { scriptUrl: fields.scriptUrl } : {}) }),
    imageOrigins: panel.imageOrigins,
    ...(fields ? { frameOrigin: new URL(fields.scriptUrl).origin } : {}),
  };
}

/** A page with only a message: unknown payment (404) or a failure to load it. */
export function renderMessagePage(options: { title: string; text: string; nonce: string }): string {
  return renderDocument({
    title: options.title,
    nonce: options.nonce,
    body: `<div class="final" id="message"><div class="icon bad" aria-hidden="true">✖</div><h2>${escapeHtml(options.title)}</h2><p class="hint">${escapeHtml(options.text)}</p></div>`,
  });
}
