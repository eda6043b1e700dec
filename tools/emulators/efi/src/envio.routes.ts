/**
 * Money out of an emulated Efí account (psp-apis.md §1, Efí "Envio de Pix" and "Saldo"): the
 * balance `GET /v2/gn/saldo` → `{saldo: "12.34"}`, a Pix sent `PUT /v3/gn/pix/:idEnvio`
 * `{valor, pagador{chave, infoPagador?}, favorecido{chave}}` → `{idEnvio, e2eId, valor,
 * horario{solicitacao}, status: EM_PROCESSAMENTO}`, read back by `GET
 * /v2/gn/pix/enviados/id-envio/:idEnvio`, settled REALIZADO or NAO_REALIZADO later (kit
 * PayoutBook: behaviour, settle and withheld-answer control routes) with a notification to the
 * key's webhook (`<url>/pix`, `{pix:[{endToEndId, valor, horario, status, tipo: "SOLICITACAO",
 * gnExtras{idEnvio}}]}`). Mounted behind the Bearer check.
 *
 * Unconfirmed against Efí (its docs name no error for these): a used idEnvio answers 409
 * `id_envio_duplicado`, a balance that does not cover the send 409 `saldo_insuficiente`, an
 * unknown idEnvio 404 `pix_enviado_nao_encontrado`.
 */
import { Router } from 'express';
import { z } from 'zod';
import { InsufficientBalanceError, type BookTransfer, type PayoutBook } from '../../kit';
import { clientOf } from './cob.routes';
import type { EmulatorState } from './emulator-state';
import { EfiApiError, pixErrors } from './pix-errors';
import { newEndToEndId } from './pix-ids';
import type { WebhookSender } from './webhook-sender';

export interface Envio {
  idEnvio: string;
  e2eId: string;
  valor: string;
  pagador: { chave: string; infoPagador?: string };
  favorecido: { chave: string };
}

export type EnvioBook = PayoutBook<Envio>;

const ID_ENVIO = /^[a-zA-Z0-9]{1,35}$/;
const VALOR = /^\d{1,10}\.\d{2}$/;

const envioSchema = z.object({
  valor: z.string().regex(VALOR, 'valor não respeita o formato \\d{1,10}\\.\\d{2}'),
  pagador: z.object({ chave: z.string().min(1).max(77), infoPagador: z.string().max(140).optional() }),
  favorecido: z.object({ chave: z.string().min(1).max(77) }),
});

const efiError = (status: number, nome: string, mensagem: string) => new EfiApiError(status, { nome, mensagem });

export const centsToValor = (cents: number) => `${Math.trunc(cents / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;
const valorToCents = (valor: string) => Math.round(Number(valor) * 100);

const STATUS = { processing: 'EM_PROCESSAMENTO', paid: 'REALIZADO', failed: 'NAO_REALIZADO' } as const;

/** A send as `GET /v2/gn/pix/enviados/id-envio/:idEnvio` answers it. */
export function envioJson(transfer: BookTransfer<Envio>): Record<string, unknown> {
  const { data } = transfer;
  return {
    endToEndId: data.e2eId,
    idEnvio: data.idEnvio,
    valor: data.valor,
    chave: data.pagador.chave,
    status: STATUS[transfer.status],
    ...(data.pagador.infoPagador ? { infoPagador: data.pagador.infoPagador } : {}),
    horario: { solicitacao: transfer.createdAt, ...(transfer.status === 'paid' && transfer.settledAt ? { liquidacao: transfer.settledAt } : {}) },
    favorecido: { chave: data.favorecido.chave },
    ...(transfer.status === 'failed' ? { gnExtras: { idEnvio: data.idEnvio, erro: { codigo: 'NAO_REALIZADO', motivo: transfer.failureReason } } } : {}),
  };
}

/** The notification Efí posts to the key's webhook when a send settles. */
export function notifyEnvio(state: EmulatorState, sender: WebhookSender, transfer: BookTransfer<Envio>): void {
  const registration = state.getWebhook(transfer.owner, transfer.data.pagador.chave);
  if (!registration) return;
  const item = {
    endToEndId: transfer.data.e2eId,
    valor: transfer.data.valor,
    horario: transfer.settledAt ?? transfer.createdAt,
    chave: transfer.data.favorecido.chave,
    status: STATUS[transfer.status],
    tipo: 'SOLICITACAO',
    gnExtras: { idEnvio: transfer.data.idEnvio },
  };
  sender.notifyEnvio(transfer.owner, registration, { pix: [item] }, transfer.data.idEnvio);
}

export function envioRoutes(state: EmulatorState, book: EnvioBook): { v2: Router; v3: Router } {
  const v2 = Router();
  const v3 = Router();

  v2.get('/gn/saldo', (_req, res) => {
    res.status(200).json({ saldo: centsToValor(book.balance(clientOf(res)).available) });
  });

  v3.put('/gn/pix/:idEnvio', (req, res) => {
    const clientId = clientOf(res);
    const idEnvio = req.params['idEnvio'] ?? '';
    if (!ID_ENVIO.test(idEnvio)) throw pixErrors.valorInvalido('O campo idEnvio não respeita o schema ^[a-zA-Z0-9]{1,35}$');
    const parsed = envioSchema.safeParse(req.body ?? {});
    if (!parsed.success) throw pixErrors.valorInvalido(parsed.error.issues[0]?.message ?? 'Corpo inválido');
    const body = parsed.data;
    if (body.pagador.chave !== state.clientChave(clientId)) throw pixErrors.chaveInvalida();
    if (book.findByKey(clientId, idEnvio)) throw efiError(409, 'id_envio_duplicado', 'O idEnvio informado já foi utilizado em outro envio');
    let made: BookTransfer<Envio>;
    try {
      made = book.create(clientId, idEnvio, idEnvio, valorToCents(body.valor), 0, {
        idEnvio,
        e2eId: newEndToEndId(state.now()),
        valor: body.valor,
        pagador: { chave: body.pagador.chave, ...(body.pagador.infoPagador ? { infoPagador: body.pagador.infoPagador } : {}) },
        favorecido: { chave: body.favorecido.chave },
      }).transfer;
    } catch (err) {
      if (err instanceof InsufficientBalanceError) throw efiError(409, 'saldo_insuficiente', 'Saldo insuficiente para realizar o envio');
      throw err;
    }
    const withheld = book.takeWithheld(clientId);
    if (withheld) return book.withhold(res, withheld);
    res.status(201).json({ idEnvio, e2eId: made.data.e2eId, valor: made.data.valor, horario: { solicitacao: made.createdAt }, status: STATUS[made.status] });
  });

  v2.get('/gn/pix/enviados/id-envio/:idEnvio', (req, res) => {
    const transfer = book.findByKey(clientOf(res), req.params['idEnvio'] ?? '');
    if (!transfer) throw efiError(404, 'pix_enviado_nao_encontrado', 'Nenhum Pix enviado encontrado para o idEnvio informado');
    res.status(200).json(envioJson(transfer));
  });

  return { v2, v3 };
}
