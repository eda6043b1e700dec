/**
 * Error answers as Woovi writes them. Every error response in Woovi's OpenAPI spec
 * (developers.woovi.com/api, `src/swaggers/woovi.json`) is `{"error": "<message>"}`, with 400 for
 * almost everything (including an unknown charge on GET/DELETE /api/v1/charge/{id}), 403 for a
 * feature or scope the company lacks, and 500 `{"error":"Internal server error"}`. Woovi has no
 * machine-readable error codes on these endpoints, so the messages below are the emulator's own
 * wording (unconfirmed), chosen to carry the meaning an integrator must match on.
 */
import type { ProviderAnswers } from '../../kit';

export interface WooviErrorBody {
  error: string;
}

export class WooviApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: WooviErrorBody,
  ) {
    super(body.error);
  }
}

const woovi = (status: number, error: string) => new WooviApiError(status, { error });

/** The errors the emulator answers. Statuses other than 400/403/500 are unconfirmed. */
export const wooviErrors = {
  invalid: (message: string) => woovi(400, message),
  // Unconfirmed: Woovi's status and text for a missing or unknown AppID.
  invalidAppId: () => woovi(401, 'appID inválido'),
  chargeNotFound: () => woovi(400, 'Cobrança não encontrada'),
  // Without `return_existing=true` a repeated correlationID is refused (text unconfirmed).
  correlationIdInUse: () => woovi(400, 'Já existe uma cobrança com esse correlationID'),
  chargeNotActive: (status: string) => woovi(400, `Cobrança não pode ser removida: status ${status}`),
  webhookNotFound: () => woovi(400, 'Webhook não encontrado'),
  routeNotFound: () => woovi(404, 'Endpoint não implementado pelo emulador'),
  internal: () => woovi(500, 'Internal server error'),
  // Unconfirmed: Woovi's 429 and 503 bodies are not documented; same shape assumed.
  rateLimited: () => woovi(429, 'Too many requests'),
  unavailable: () => woovi(503, 'Service unavailable'),
};

/** How Woovi answers its own errors, injected faults, bad bodies and unknown paths (kit/api-port.ts). */
export const wooviAnswers: ProviderAnswers = {
  known: (err) => (err instanceof WooviApiError ? err : undefined),
  badBody: () => ({ status: 400, body: { error: 'Corpo da requisição não é um JSON válido' } }),
  notFound: () => wooviErrors.routeNotFound(),
  internal: () => wooviErrors.internal(),
  unavailable: () => wooviErrors.unavailable(),
  rateLimited: () => wooviErrors.rateLimited(),
};
