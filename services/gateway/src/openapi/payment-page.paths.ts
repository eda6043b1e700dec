import type { OpenAPIRegistry } from '@asteasolutions/zod-to-openapi';
import { QrCodeParamsSchema } from '../schemas/path-params.schema';
import { z } from '../schemas/zod-openapi';
import { PUBLIC } from './openapi.helpers';

const html = (description: string) => ({ description, content: { 'text/html': { schema: z.string() } } });

/**
 * The buyer's payment page (`payment_url`): public HTML for people, not an API for programs. Shown
 * at `/pay/…` (PAY_BASE_URL's path; on a host of its own, pay.<domain>, it is served at `/`).
 */
export function registerPaymentPagePaths(registry: OpenAPIRegistry): void {
  registry.registerPath({
    method: 'get',
    path: '/pay/{paymentId}',
    operationId: 'getPaymentPage',
    tags: ['Public'],
    summary: 'Página de pagamento do comprador (HTML, sem chave): valor, descrição, formas de pagamento, QR Pix ou situação final',
    security: PUBLIC,
    request: { params: QrCodeParamsSchema },
    description:
      'O endereço pode trazer as chaves de tracking (utm_source, …, ttp; cada valor até 500 caracteres, mais longos são ignorados): ' +
      'elas preenchem as chaves que o pagamento ainda não tem (as enviadas na criação valem) e a visita (IP e navegador) é registrada.',
    responses: { 200: html('A página.'), 404: html('Página amigável de pagamento não encontrado.') },
  });
  registry.registerPath({
    method: 'post',
    path: '/pay/{paymentId}',
    operationId: 'choosePaymentMethod',
    tags: ['Public'],
    summary: 'Escolha da forma de pagamento pelo comprador (formulário da própria página; só para pagamentos requires_method)',
    security: PUBLIC,
    request: {
      params: QrCodeParamsSchema,
      body: { content: { 'application/x-www-form-urlencoded': { schema: z.object({ method: z.enum(['pix', 'boleto', 'card']) }) } } },
    },
    responses: {
      303: { description: 'Escolha feita: volta para a página, que mostra como pagar.' },
      403: html('Envio de outro site (Origin ou Sec-Fetch-Site diferente da página).'),
      409: html('A página de novo, com o aviso: o pagamento não aguarda mais a escolha.'),
      422: html('A página de novo, com o aviso: forma de pagamento não oferecida.'),
    },
  });
  registry.registerPath({
    method: 'get',
    path: '/v1/tracking.js',
    operationId: 'getTrackingScript',
    tags: ['Public'],
    summary: 'O script de rastreamento para o site da loja (sem chave): guarda UTMs e ids de clique e os leva aos links de pagamento',
    description:
      'No site da loja: carregue `…/v1/tracking.js` num elemento script com `defer`, `data-hosts="pay.loja.com.br"` e `data-days="30"`. ' +
      'Guarda as chaves de tracking (utm_source, utm_medium, utm_campaign, utm_content, utm_term, src, sck, fbclid, gclid, ttclid, fbp, fbc, ttp) ' +
      'do endereço da página de entrada no próprio site (localStorage orquestra_utm, ou o cookie orquestra_utm), por data-days dias (padrão 30); ' +
      'um endereço com novas chaves substitui o conjunto guardado (último clique). Acrescenta as chaves guardadas aos links para a página de ' +
      'pagamento da plataforma e para os domínios de data-hosts (separados por vírgula); uma chave que o link já tem vale. ' +
      'Oferece Orquestra.utm() (as chaves guardadas) e Orquestra.withUtm(url) (o endereço com as chaves que ele ainda não tem).',
    security: PUBLIC,
    responses: { 200: { description: 'JavaScript sem dependências (cache público de 1 hora).', content: { 'application/javascript': { schema: z.string() } } } },
  });
  registry.registerPath({
    method: 'get',
    path: '/pay/{paymentId}/status',
    operationId: 'getPaymentPageStatus',
    tags: ['Public'],
    summary: 'Situação consultada pela página a cada 3 s enquanto o pagamento está aberto',
    security: PUBLIC,
    request: { params: QrCodeParamsSchema },
    responses: {
      200: {
        description: 'status; final (nada mais muda); html do painel final quando final.',
        content: { 'application/json': { schema: z.object({ status: z.string(), final: z.boolean(), html: z.string().nullable() }) } },
      },
      404: html('Pagamento não encontrado: a mesma página amigável de GET /pay/{paymentId}.'),
      503: {
        description: 'Não foi possível consultar agora (a página tenta de novo).',
        content: { 'application/json': { schema: z.object({ status: z.null(), final: z.literal(false), html: z.null() }) } },
      },
    },
  });
}
