/**
 * Validation of `PUT /v2/cob/:txid` bodies with the limits of the Banco Central schema (CobPayload)
 * and the messages Efí documents for its `valor_invalido` errors.
 */
import { z } from 'zod';
import { isValidCnpj, isValidCpf } from '../../kit';
import { pixErrors } from './pix-errors';

export interface CobRequest {
  calendario: { expiracao: number };
  devedor?: { cpf?: string; cnpj?: string; nome: string };
  valor: { original: string };
  chave: string;
  solicitacaoPagador?: string;
  infoAdicionais?: { nome: string; valor: string }[];
}

/** Default of `calendario.expiracao` in the Banco Central spec (24 h). */
const DEFAULT_EXPIRACAO_SECONDS = 86_400;

const cobSchema = z.object({
  calendario: z.object({ expiracao: z.number().int() }).optional(),
  devedor: z
    .object({
      cpf: z.string().optional(),
      cnpj: z.string().optional(),
      nome: z.string().max(200, 'Campo devedor.nome deve ter no máximo 200 caracteres'),
    })
    .optional(),
  valor: z.object({ original: z.string() }),
  chave: z.string().min(1, 'Campo chave é obrigatório').max(77),
  solicitacaoPagador: z.string().max(140, 'Campo solicitacaoPagador deve ter no máximo 140 caracteres').optional(),
  infoAdicionais: z
    .array(
      z.object({
        nome: z.string().max(50, 'Campo infoAdicionais[].nome deve ter no máximo 50 caracteres'),
        valor: z.string().max(200, 'Campo infoAdicionais[].valor deve ter no máximo 200 caracteres'),
      }),
    )
    .max(50, 'Campo infoAdicionais deve ter no máximo 50 itens')
    .optional(),
});

/** Parses and checks a cob body; throws the `valor_invalido` error Efí answers otherwise. */
export function parseCobRequest(body: unknown): CobRequest {
  const parsed = cobSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const message = issue && issue.code !== 'invalid_type' ? issue.message : issue?.path.length ? `Campo ${issue.path.join('.')} inválido` : 'Corpo da requisição inválido';
    throw pixErrors.valorInvalido(message);
  }
  const cob = parsed.data;
  const expiracao = cob.calendario?.expiracao ?? DEFAULT_EXPIRACAO_SECONDS;
  if (expiracao <= 0) throw pixErrors.valorInvalido('Campo calendario.expiracao deve ser maior que zero');
  if (!/^\d{1,10}\.\d{2}$/.test(cob.valor.original)) {
    throw pixErrors.valorInvalido('Campo valor.original não respeita o formato \\d{1,10}\\.\\d{2}');
  }
  if (/^0+\.00$/.test(cob.valor.original)) throw pixErrors.valorInvalido('Campo valor.original deve ser maior que zero');
  if (cob.devedor) checkDevedor(cob.devedor);
  return {
    calendario: { expiracao },
    valor: { original: cob.valor.original },
    chave: cob.chave,
    ...(cob.devedor ? { devedor: cob.devedor } : {}),
    ...(cob.solicitacaoPagador !== undefined ? { solicitacaoPagador: cob.solicitacaoPagador } : {}),
    ...(cob.infoAdicionais ? { infoAdicionais: cob.infoAdicionais } : {}),
  };
}

function checkDevedor(devedor: { cpf?: string; cnpj?: string; nome: string }): void {
  if ((devedor.cpf === undefined) === (devedor.cnpj === undefined)) {
    throw pixErrors.valorInvalido('Campo devedor deve ter exatamente um de devedor.cpf ou devedor.cnpj');
  }
  if (devedor.cpf !== undefined && !isValidCpf(devedor.cpf)) {
    throw pixErrors.valorInvalido('Documento CPF em devedor.cpf é inválido');
  }
  if (devedor.cnpj !== undefined && !isValidCnpj(devedor.cnpj)) {
    throw pixErrors.valorInvalido('Documento CNPJ em devedor.cnpj é inválido');
  }
}
