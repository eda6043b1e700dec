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
    },
  });
}
