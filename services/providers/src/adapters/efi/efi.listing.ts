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
 * `{"boletos":true}` asks for them, `GET /v1/charges?charge_type=billet&begin_date&end_date&limit&page`
 * (São Paulo days; efi.cobrancas.ts), kept when created in [from, to). Efí pages that list by
 * `limit` and `page`: the names come from Efí's own SDK examples (sdk-python-apis-efi
 * examples/charges/billet/list_billets.py lists `limit`, `page` and `offset`); that `page` counts
 * from 1, the largest `limit` and whether the answer counts pages are unconfirmed. So a full page
 * means there may be another and a short (or empty) one ends the list; and should the API ignore
 * `page` (a page beginning with the same boleto as the one before it), paging stops with a note
 * on the run rather than reading the same page forever or claiming to have seen everything.
 *
 * An app without the API Cobranças (a Pix-only Efí app is refused there with 401/403, which the
 * error table reads as invalid_credentials) has its Pix reconciled and the boleto phase ends with
 * a note (ChargePage.notes) that its boletos were not checked: visible in the run, never an empty
 * list passed off as "no boletos".
 */
import type { ChargePage, ChargePeriod, ListedCharge } from '../provider-charge-listing';
import { cobrancaListCharges, type EfiListedCobranca } from './efi.cobrancas';
import { mapCobStatus, valorToCents, type EfiCob } from './efi.transformers';

/** `GET /v2/cob` answer (Banco Central `CobsConsultadas`). */
export interface EfiCobList {
  parametros?: { paginacao?: { paginaAtual?: number; itensPorPagina?: number; quantidadeDePaginas?: number; quantidadeTotalDeItens?: number } };
  cobs?: EfiCob[];
}

/** Efí's default and maximum page size. */
export const EFI_LIST_PAGE_SIZE = 100;
export const EFI_LIST_PAGE_SIZE_MAX = 1000;

/**
 * The cursor: the next Pix page number (from 0), or a page of the boleto phase (`pagina` from 1,
 * absent for the first; `anterior` the first charge_id of the page before). Opaque to callers.
 */
type EfiListCursor = { pagina: number } | { boletos: true; pagina?: number; anterior?: number };

/** Where the boleto phase is: the API Cobranças page (from 1) and the first charge_id of the page before it. */
export interface EfiBoletoPosition {
  page: number;
  previousFirst: number | null;
}

/** The next Pix page, or the boleto phase's position once the Pix pages are done. */
export function decodeEfiListCursor(cursor: string | null): number | EfiBoletoPosition {
  if (cursor === null) return 0;
  const parsed = JSON.parse(cursor) as Partial<{ pagina: unknown; boletos: unknown; anterior: unknown }>;
  if (parsed.boletos === true) {
    const page = parsed.pagina ?? 1;
    if (typeof page !== 'number' || !Number.isSafeInteger(page) || page < 1) throw new RangeError(`not an Efí list cursor: ${cursor}`);
    return { page, previousFirst: typeof parsed.anterior === 'number' ? parsed.anterior : null };
  }
  if (typeof parsed.pagina !== 'number' || !Number.isSafeInteger(parsed.pagina) || parsed.pagina < 0) throw new RangeError(`not an Efí list cursor: ${cursor}`);
  return parsed.pagina;
}

/** The run's note (Portuguese, shown to the merchant) when the app cannot use the API Cobranças. */
export const EFI_BOLETOS_NOT_LISTED_NOTE =
  'Boletos não conferidos: a Efí recusou as credenciais desta conta na API Cobranças (aplicação sem o escopo de boletos). As cobranças Pix foram conferidas; habilite a API Cobranças na aplicação para conferir os boletos.';

/** The run's note when the API Cobranças answered the same page again for the next page number. */
export const EFI_BOLETO_PAGING_NOTE =
  'Boletos conferidos só em parte: a Efí repetiu a mesma página da lista de boletos ao pedir a seguinte, então os boletos além dela não foram lidos.';

/**
 * One page of the boleto phase: the boletos created in [from, to); the next page while this one
 * came back full; a note, and the end, when it begins with the same boleto as the page before.
 */
export function efiBoletoListPage(listed: readonly EfiListedCobranca[], period: ChargePeriod, position: EfiBoletoPosition, pageSize: number): ChargePage {
  const first = listed[0]?.charge_id ?? null;
  if (first !== null && first === position.previousFirst) return { charges: [], next: null, notes: [EFI_BOLETO_PAGING_NOTE] };
  const charges = cobrancaListCharges(listed, period);
  if (listed.length < pageSize || first === null) return { charges, next: null };
  return { charges, next: JSON.stringify({ boletos: true, pagina: position.page + 1, anterior: first } satisfies EfiListCursor) };
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
