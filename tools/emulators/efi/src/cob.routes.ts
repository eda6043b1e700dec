/**
 * Immediate charges and their QR codes: `PUT|GET|PATCH /v2/cob/:txid` and
 * `GET /v2/loc/:id/qrcode`, answering the Banco Central shapes Efí returns. Mounted under `/v2`
 * behind the Bearer check, which leaves the caller's client id in `res.locals.clientId`.
 */
import { Router, type Response } from 'express';
import { dynamicBrCode, qrCodePngDataUrl, type Merchant } from '../../kit';
import { cobListJson, parseCobListQuery } from './cob-list';
import { parseCobRequest } from './cob-validation';
import type { EmulatorState, StoredCharge } from './emulator-state';
import { pixErrors } from './pix-errors';
import { newLocationToken, TXID_PATTERN } from './pix-ids';

export interface CobRoutesOptions {
  merchant: Merchant;
  /** Host part of payload location URLs, e.g. `qrcodes-pix.efi-emulator.local`. */
  locationHost: string;
  /** Base URL of the page a `linkVisualizacao` points to (the control port). */
  visualizationBase: () => string;
}

export function clientOf(res: Response): string {
  return res.locals['clientId'] as string;
}

/** The charge as the API answers it (`CobCompleta`). */
export function cobJson(charge: StoredCharge) {
  const { request } = charge;
  return {
    calendario: { criacao: charge.criacao.toISOString(), expiracao: request.calendario.expiracao },
    txid: charge.txid,
    revisao: charge.revisao,
    loc: charge.loc,
    location: charge.loc.location,
    status: charge.status,
    ...(request.devedor ? { devedor: request.devedor } : {}),
    valor: { original: request.valor.original },
    chave: request.chave,
    ...(request.solicitacaoPagador !== undefined ? { solicitacaoPagador: request.solicitacaoPagador } : {}),
    ...(request.infoAdicionais ? { infoAdicionais: request.infoAdicionais } : {}),
    pixCopiaECola: charge.pixCopiaECola,
    ...(charge.pix.length > 0 ? { pix: charge.pix } : {}),
  };
}

export function locationToken(charge: StoredCharge): string {
  return charge.loc.location.slice(charge.loc.location.lastIndexOf('/') + 1);
}

export function cobRoutes(state: EmulatorState, options: CobRoutesOptions): Router {
  const router = Router();

  // Banco Central `GET /cob`: the client's charges created in [inicio, fim], one page at a time.
  router.get('/cob', (req, res) => {
    const query = parseCobListQuery(req.query as Record<string, unknown>);
    const found = state
      .listCharges(clientOf(res))
      .filter((c) => c.criacao.getTime() >= query.inicio.getTime() && c.criacao.getTime() <= query.fim.getTime())
      .filter((c) => query.status === undefined || c.status === query.status)
      .sort((a, b) => a.criacao.getTime() - b.criacao.getTime());
    res.status(200).json(cobListJson(found, query, cobJson));
  });

  router.put('/cob/:txid', (req, res) => {
    const clientId = clientOf(res);
    const txid = req.params['txid'] ?? '';
    if (!TXID_PATTERN.test(txid)) throw pixErrors.valorInvalido('Campo txid deve ter entre 26 e 35 caracteres alfanuméricos ([a-zA-Z0-9])');
    const cob = parseCobRequest(req.body);
    if (cob.chave !== state.clientChave(clientId)) throw pixErrors.chaveInvalida();
    const location = `${options.locationHost}/v2/${newLocationToken()}`;
    const charge = state.createCharge({
      clientId,
      txid,
      revisao: 0,
      criacao: state.now(),
      request: cob,
      status: 'ATIVA',
      loc: { id: state.allocateLocId(), location, tipoCob: 'cob' },
      pixCopiaECola: dynamicBrCode(location, options.merchant),
      pix: [],
    });
    res.status(201).json(cobJson(charge));
  });

  router.get('/cob/:txid', (req, res) => {
    res.status(200).json(cobJson(state.getCharge(clientOf(res), req.params['txid'] ?? '')));
  });

  router.patch('/cob/:txid', (req, res) => {
    const body = (req.body ?? {}) as Record<string, unknown>;
    const keys = Object.keys(body);
    // The emulator implements the one revision integrators use: removing an unpaid charge.
    if (keys.length !== 1 || body['status'] !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR') {
      throw pixErrors.valorInvalido('Emulador: só a revisão {"status":"REMOVIDA_PELO_USUARIO_RECEBEDOR"} é suportada');
    }
    res.status(200).json(cobJson(state.removeCharge(clientOf(res), req.params['txid'] ?? '')));
  });

  router.get('/loc/:id/qrcode', async (req, res) => {
    const id = Number(req.params['id']);
    const charge = Number.isSafeInteger(id) ? state.findLocation(clientOf(res), id) : undefined;
    if (!charge) throw pixErrors.locationNaoEncontrada();
    res.status(200).json({
      qrcode: charge.pixCopiaECola,
      imagemQrcode: await qrCodePngDataUrl(charge.pixCopiaECola),
      linkVisualizacao: `${options.visualizationBase()}/cob/pagar/${locationToken(charge)}`,
    });
  });

  return router;
}
