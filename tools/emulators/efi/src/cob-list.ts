/**
 * The Banco Central `GET /cob` (Efí `GET /v2/cob`): immediate charges created between `inicio` and
 * `fim` (RFC 3339, both required, both inclusive), optionally by `status`, paged by
 * `paginacao.paginaAtual` (from 0) and `paginacao.itensPorPagina` (1..1000, default 100). The
 * answer is `{parametros{inicio, fim, paginacao{paginaAtual, itensPorPagina, quantidadeDePaginas,
 * quantidadeTotalDeItens}}, cobs[]}`. Oldest first (the spec names no order).
 * Filters the emulator ignores: `cpf`, `cnpj`, `locationPresente`.
 */
import type { CobStatus, StoredCharge } from './emulator-state';
import { EfiApiError } from './pix-errors';

export interface CobListQuery {
  inicio: Date;
  fim: Date;
  status?: CobStatus;
  paginaAtual: number;
  itensPorPagina: number;
}

const STATUSES: readonly CobStatus[] = ['ATIVA', 'CONCLUIDA', 'REMOVIDA_PELO_USUARIO_RECEBEDOR', 'REMOVIDA_PELO_PSP'];
const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;
const MAX_ITENS_POR_PAGINA = 1000;

/** The Banco Central's error for bad list parameters (RFC 7807 `CobConsultaInvalida`). */
function consultaInvalida(propriedade: string, razao: string): EfiApiError {
  return new EfiApiError(400, {
    type: 'https://pix.bcb.gov.br/api/v2/error/CobConsultaInvalida',
    title: 'Consulta inválida',
    status: 400,
    detail: 'Os parâmetros de consulta à lista de cobranças não respeitam o schema.',
    violacoes: [{ razao, propriedade }],
  });
}

function instant(query: Record<string, unknown>, name: string): Date {
  const raw = query[name];
  if (typeof raw !== 'string' || raw === '') throw consultaInvalida(name, `O parâmetro ${name} é obrigatório.`);
  const ms = RFC3339.test(raw) ? Date.parse(raw) : NaN;
  if (!Number.isFinite(ms)) throw consultaInvalida(name, `O parâmetro ${name} não respeita o formato RFC 3339.`);
  return new Date(ms);
}

function integer(query: Record<string, unknown>, name: string, fallback: number, min: number, max: number): number {
  const raw = query[name];
  if (raw === undefined) return fallback;
  if (typeof raw !== 'string' || !/^\d{1,9}$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw consultaInvalida(name, `O parâmetro ${name} deve ser um inteiro entre ${min} e ${max}.`);
  }
  return Number(raw);
}

/** Reads the query (Express 5's simple parser keeps `paginacao.paginaAtual` as one key). */
export function parseCobListQuery(query: Record<string, unknown>): CobListQuery {
  const inicio = instant(query, 'inicio');
  const fim = instant(query, 'fim');
  if (inicio.getTime() > fim.getTime()) throw consultaInvalida('fim', 'O parâmetro fim deve ser posterior ao parâmetro inicio.');
  const status = query['status'];
  if (status !== undefined && !STATUSES.includes(status as CobStatus)) throw consultaInvalida('status', `O parâmetro status deve ser um de ${STATUSES.join(', ')}.`);
  return {
    inicio,
    fim,
    ...(status !== undefined ? { status: status as CobStatus } : {}),
    paginaAtual: integer(query, 'paginacao.paginaAtual', 0, 0, 1_000_000),
    itensPorPagina: integer(query, 'paginacao.itensPorPagina', 100, 1, MAX_ITENS_POR_PAGINA),
  };
}

export function cobListJson<T>(found: StoredCharge[], query: CobListQuery, toJson: (charge: StoredCharge) => T) {
  const start = query.paginaAtual * query.itensPorPagina;
  return {
    parametros: {
      inicio: query.inicio.toISOString(),
      fim: query.fim.toISOString(),
      ...(query.status ? { status: query.status } : {}),
      paginacao: {
        paginaAtual: query.paginaAtual,
        itensPorPagina: query.itensPorPagina,
        quantidadeDePaginas: Math.ceil(found.length / query.itensPorPagina),
        quantidadeTotalDeItens: found.length,
      },
    },
    cobs: found.slice(start, start + query.itensPorPagina).map(toJson),
  };
}
