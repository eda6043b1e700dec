/**
 * Efí's own records of Pix charges for reconciliation (issue 18): the Banco Central
 * `GET /v2/cob?inicio&fim` with `paginacao.paginaAtual` (from 0) and `paginacao.itensPorPagina`,
 * each cob mapped to a ListedCharge through the adapter's status map. Pure: the adapter makes the call.
 *
 * What the list cannot tell: the fee (the API Pix reports none: `fee` null). A refund shows as
 * settled devoluções under `pix[]`; the cob itself stays CONCLUIDA (paid). No field carries our id
 * back: the txid is derived from our idempotency key by SHA-256 (efi.transformers.ts) and is the
 * provider id itself, so `reference` is null.
 *
 * Boletos live in the API Cobranças, not in `/v2/cob`: after the last Pix page the cursor
 * `{"boletos":true}` asks for them, `GET /v1/charges?charge_type=billet&begin_date&end_date`
 * (São Paulo days; efi.cobrancas.ts), kept when created in [from, to). That list is read as one
 * page: Efí's paging of it is not documented in the facts we have (the emulator answers all).
 */
import type { ChargePage, ChargePeriod, ListedCharge } from '../provider-charge-listing';
import { mapCobStatus, valorToCents, type EfiCob } from './efi.transformers';

/** `GET /v2/cob` answer (Banco Central `CobsConsultadas`). */
export interface EfiCobList {
  parametros?: { paginacao?: { paginaAtual?: number; itensPorPagina?: number; quantidadeDePaginas?: number; quantidadeTotalDeItens?: number } };
  cobs?: EfiCob[];
}

/** Efí's default and maximum page size. */
export const EFI_LIST_PAGE_SIZE = 100;
export const EFI_LIST_PAGE_SIZE_MAX = 1000;

/** The cursor: the next Pix page number, or the boleto phase. Opaque to callers. */
type EfiListCursor = { pagina: number } | { boletos: true };

/** The next Pix page, or `boletos` once the Pix pages are done. */
export function decodeEfiListCursor(cursor: string | null): number | 'boletos' {
  if (cursor === null) return 0;
  const parsed = JSON.parse(cursor) as Partial<{ pagina: unknown; boletos: unknown }>;
  if (parsed.boletos === true) return 'boletos';
  if (typeof parsed.pagina !== 'number' || !Number.isSafeInteger(parsed.pagina) || parsed.pagina < 0) throw new RangeError(`not an Efí list cursor: ${cursor}`);
  return parsed.pagina;
}

/** The cursor of the boleto phase. */
export const EFI_BOLETO_PHASE_CURSOR = JSON.stringify({ boletos: true } satisfies EfiListCursor);

/**
 * The path of one page. The period is [from, to) and the API's `fim` is inclusive, so `fim` is
 * one millisecond before `to` (Efí keeps `criacao` to the millisecond at most).
 */
export function efiCobListPath(period: ChargePeriod, page: number, pageSize: number): string {
  const query = new URLSearchParams({
    inicio: period.from.toISOString(),
    fim: new Date(period.to.getTime() - 1).toISOString(),
    'paginacao.paginaAtual': String(page),
    'paginacao.itensPorPagina': String(pageSize),
  });
  return `/v2/cob?${query.toString()}`;
}

/** Cents returned to the payer: settled devoluções only (one in process may still fail). */
function refundedCents(cob: EfiCob): number {
  let cents = 0;
  for (const pix of cob.pix ?? []) for (const d of pix.devolucoes ?? []) if (d.status === 'DEVOLVIDO') cents += valorToCents(d.valor);
  return cents;
}

export function cobToListedCharge(cob: EfiCob): ListedCharge {
  return {
    providerPaymentId: cob.txid,
    status: mapCobStatus(cob.status).status,
    amount: valorToCents(cob.valor.original),
    amountRefunded: refundedCents(cob),
    fee: null,
    method: 'pix',
    createdAt: new Date(cob.calendario.criacao),
    reference: null,
  };
}

/** One answer → the page; the charges outside [from, to) are dropped (the API's bounds are inclusive). After the last Pix page comes the boleto phase. */
export function efiCobListPage(list: EfiCobList, period: ChargePeriod, page: number, pageSize: number): ChargePage {
  const cobs = list.cobs ?? [];
  const charges = cobs.map(cobToListedCharge).filter((c) => c.createdAt >= period.from && c.createdAt < period.to);
  const pages = list.parametros?.paginacao?.quantidadeDePaginas;
  // Without the page count, a full page means there may be another.
  const more = typeof pages === 'number' ? page + 1 < pages : cobs.length >= pageSize;
  return { charges, next: more ? JSON.stringify({ pagina: page + 1 } satisfies EfiListCursor) : EFI_BOLETO_PHASE_CURSOR };
}
