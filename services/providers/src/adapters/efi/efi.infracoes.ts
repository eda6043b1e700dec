/**
 * Efí MED infraction notices ("infrações"): wire types, the exhaustive status map, and the list and
 * defense calls (given the adapter's `api`). Sources: efipay/sdk-node-apis-efi endpoints
 * (`pixListInfractions` `GET /v2/gn/infracoes?inicio&fim`, `pixInfractionDefense`
 * `POST /v2/gn/infracoes/:idInfracao/defesa {analise, justificativa}`) and types
 * (`infracoes[{idInfracao, endToEndId, protocolo, valor, status, razao, tipoSituacao,
 * dadosAnalise{abertura, prazoFinalizacao}}]`).
 */
import { assertNever } from '@orquestra/platform';
import type { Dispatcher } from 'undici';
import { ProviderError } from '../provider-adapter';
import type { DisputeEvidenceInput, ListDisputesInput, ProviderDispute, ProviderDisputeStatus } from '../provider-disputes';
import { valorToCents } from './efi.transformers';
import { providerErrorFor } from './efi.errors';

export const EFI_INFRACAO_STATUSES = ['ABERTA', 'ACEITA', 'CANCELADA_EFI', 'EM_DEFESA', 'REJEITADA'] as const;
export type EfiInfracaoStatus = (typeof EFI_INFRACAO_STATUSES)[number];

export interface EfiInfracao {
  idInfracao: string;
  endToEndId: string;
  protocolo?: string;
  valor: string;
  status: EfiInfracaoStatus;
  razao?: string;
  tipoSituacao?: string;
  dadosAnalise?: { abertura?: string; prazoFinalizacao?: string };
}

/**
 * Every documented status; a new one fails to compile here. ABERTA waits for our answer;
 * EM_DEFESA has it; ACEITA is the notice upheld (the payer is refunded: lost), REJEITADA turned
 * down (won); CANCELADA_EFI withdrawn.
 */
export function mapInfracaoStatus(status: EfiInfracaoStatus): ProviderDisputeStatus {
  switch (status) {
    case 'ABERTA':
      return 'open';
    case 'EM_DEFESA':
      return 'under_review';
    case 'ACEITA':
      return 'lost';
    case 'REJEITADA':
      return 'won';
    case 'CANCELADA_EFI':
      return 'canceled';
    default:
      return assertNever(status);
  }
}

const isStatus = (value: unknown): value is EfiInfracaoStatus => (EFI_INFRACAO_STATUSES as readonly unknown[]).includes(value);
const dateOf = (text: string | undefined) => {
  const date = text ? new Date(text) : undefined;
  return date && !Number.isNaN(date.getTime()) ? date : undefined;
};

/** One notice as a provider dispute; undefined for an entry we cannot read (logged by the caller as skipped). */
export function toProviderDispute(infracao: EfiInfracao): ProviderDispute | undefined {
  if (typeof infracao.idInfracao !== 'string' || !infracao.idInfracao || typeof infracao.endToEndId !== 'string' || !isStatus(infracao.status)) return undefined;
  let amount: number | undefined;
  try {
    amount = valorToCents(infracao.valor);
  } catch {
    amount = undefined;
  }
  const openedAt = dateOf(infracao.dadosAnalise?.abertura);
  const answerDueAt = dateOf(infracao.dadosAnalise?.prazoFinalizacao);
  return {
    providerDisputeId: infracao.idInfracao,
    kind: 'med',
    status: mapInfracaoStatus(infracao.status),
    providerStatus: infracao.status,
    endToEndId: infracao.endToEndId,
    ...(amount ? { amount } : {}),
    ...(infracao.razao ? { reason: infracao.razao } : {}),
    ...(openedAt ? { openedAt } : {}),
    ...(answerDueAt ? { answerDueAt } : {}),
    acceptsEvidence: true,
  };
}

/**
 * The defense body: we always contest (`analise: "rejeitado"`; agreeing with a notice is done by
 * not defending or in Efí's dashboard), with the merchant's text and its links to proof.
 */
export function buildDefesa(input: Pick<DisputeEvidenceInput, 'text' | 'urls'>): { analise: 'rejeitado'; justificativa: string } {
  const links = input.urls.length > 0 ? `\n\nComprovantes:\n${input.urls.join('\n')}` : '';
  return { analise: 'rejeitado', justificativa: `${input.text}${links}` };
}

type Api = (method: Dispatcher.HttpMethod, path: string, operation: 'read' | 'write', body?: unknown) => Promise<{ status: number; body: unknown }>;

/** `GET /v2/gn/infracoes?inicio&fim`: the notices opened in the window. Unreadable entries are skipped. */
export async function listEfiInfracoes(api: Api, input: ListDisputesInput): Promise<ProviderDispute[]> {
  const query = new URLSearchParams({ inicio: input.since.toISOString(), fim: input.until.toISOString() });
  const answer = await api('GET', `/v2/gn/infracoes?${query.toString()}`, 'read');
  if (answer.status !== 200) throw providerErrorFor(answer.status, answer.body, 'list infracoes');
  const list = (answer.body as { infracoes?: unknown } | undefined)?.infracoes;
  if (!Array.isArray(list)) throw new ProviderError('not_created', 'provider_error', 'efi list infracoes: answer without infracoes', answer.status);
  return list.flatMap((entry) => {
    const dispute = typeof entry === 'object' && entry !== null ? toProviderDispute(entry as EfiInfracao) : undefined;
    return dispute ? [dispute] : [];
  });
}

/** `POST /v2/gn/infracoes/:idInfracao/defesa`. A refusal (not open, deadline passed) is `rejected`. */
export async function submitEfiDefesa(api: Api, input: DisputeEvidenceInput): Promise<void> {
  const answer = await api('POST', `/v2/gn/infracoes/${encodeURIComponent(input.providerDisputeId)}/defesa`, 'write', buildDefesa(input));
  if (answer.status === 200 || answer.status === 201 || answer.status === 204) return;
  throw providerErrorFor(answer.status, answer.body, 'defesa');
}
