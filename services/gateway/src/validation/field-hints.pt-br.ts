/**
 * What to do about each request field, in Portuguese, appended to validation messages
 * ("O campo customer.name é obrigatório. Informe o nome do cliente."). Keys are the public param
 * path; `*` stands for any metadata/tracking key and `[]` for any array index.
 */
export const FIELD_HINTS_PT_BR: Record<string, string> = {
  method: 'Use pix, card ou boleto, ou omita o campo para o cliente escolher na página de pagamento.',
  amount: 'Informe o valor em centavos como número inteiro, por exemplo 1990 para R$ 19,90.',
  currency: 'A única moeda aceita é BRL; o campo pode ser omitido.',
  description: 'Informe uma descrição de até 500 caracteres.',
  customer: 'Informe o cliente como objeto, com pelo menos o nome (customer.name).',
  'customer.name': 'Informe o nome do cliente.',
  'customer.email': 'Informe um e-mail válido, por exemplo cliente@exemplo.com.br.',
  'customer.document': 'Informe um CPF (11 dígitos) ou CNPJ (14 caracteres, inclusive o alfanumérico) com dígitos verificadores válidos; pontos, traço e barra são aceitos.',
  'customer.phone': 'Informe o telefone com DDD, por exemplo +55 11 91234-5678.',
  'customer.ip': 'Informe o IP do comprador (IPv4 ou IPv6) ou omita o campo para usar o IP de quem chama a API.',
  'customer.address': 'Informe o endereço com street, number, neighborhood, city, state, zip e, se houver, complement.',
  'customer.address.street': 'Informe o logradouro.',
  'customer.address.number': 'Informe o número (ou S/N).',
  'customer.address.neighborhood': 'Informe o bairro.',
  'customer.address.city': 'Informe a cidade.',
  'customer.address.state': 'Informe a sigla da UF com 2 letras, por exemplo SP.',
  'customer.address.zip': 'Informe o CEP com 8 dígitos, por exemplo 01310-100.',
  'customer.address.complement': 'Informe o complemento com até 100 caracteres ou omita o campo.',
  card: 'Informe card.token (do formulário de cartão da conta), card.id (cartão salvo) ou nenhum dos dois (checkout hospedado do provedor).',
  'card.installments': 'Informe o número de parcelas entre 1 e 12.',
  expires_in_minutes: 'Informe a validade em minutos, de 1 a 43200 (30 dias).',
  metadata: 'Metadata aceita até 50 chaves de até 40 caracteres, com valores de texto de até 500 caracteres.',
  'metadata.*': 'Use em metadata apenas valores de texto de até 500 caracteres.',
  tracking:
    'Tracking aceita somente as chaves utm_source, utm_medium, utm_campaign, utm_content, utm_term, src, sck, fbclid, gclid, ttclid, fbp, fbc e ttp.',
  'tracking.*': 'Use em tracking apenas valores de texto de até 500 caracteres.',
  provider_account_id: 'Informe o id de uma conta de provedor conectada (pa_…) ou omita o campo.',
  splits: 'Informe até 20 divisões, cada uma com subaccount_id e amount ou percentage.',
  'splits[].subaccount_id': 'Informe o id da subconta (sub_…).',
  'splits[].amount': 'Informe a parte em centavos como número inteiro.',
  'splits[].percentage': 'Informe a porcentagem do valor bruto, com até duas casas decimais.',
  limit: 'Informe um número inteiro de 1 a 100.',
  starting_after: 'Informe o id do último item da página anterior.',
  status: 'Use um dos status de pagamento: requires_method, pending, processing, succeeded, failed, canceled, refunded ou partially_refunded.',
  provider: 'Informe o código do provedor.',
  type: 'Informe um tipo de evento, por exemplo payment.succeeded.',
  'Idempotency-Key': 'Envie uma chave de até 255 caracteres visíveis, única por pagamento (por exemplo um UUID).',
};

/** What-to-do texts keyed like FIELD_HINTS_PT_BR; an operation may pass its own (they win). */
export type FieldHints = Readonly<Record<string, string>>;

function lookup(table: FieldHints, param: string): string | undefined {
  const indexless = param.replace(/\[\d+\]/g, '[]');
  const exact = table[param] ?? table[indexless];
  if (exact) return exact;
  const dot = indexless.lastIndexOf('.');
  return dot > 0 ? table[`${indexless.slice(0, dot)}.*`] : undefined;
}

/** The hint for a param path, trying the exact path, then its generalized forms; `own` first. */
export function fieldHint(param: string, own?: FieldHints): string | undefined {
  return (own && lookup(own, param)) ?? lookup(FIELD_HINTS_PT_BR, param);
}
