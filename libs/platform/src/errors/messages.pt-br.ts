import type { ErrorCode } from './error-codes';

/**
 * Default Portuguese (pt-BR) message per code: what happened and what to do. A thrower may give a
 * more specific message; this catalogue is the fallback and the single place to edit wording.
 */
export const MESSAGES_PT_BR: Record<ErrorCode, string> = {
  invalid_request: 'Requisição inválida. Corrija os campos indicados e tente novamente.',
  invalid_json: 'O corpo da requisição não é um JSON válido. Envie um objeto JSON com Content-Type: application/json.',
  parameter_missing: 'Campo obrigatório ausente. Informe o campo indicado em param.',
  parameter_invalid: 'Valor inválido. Corrija o campo indicado em param.',
  amount_too_small: 'O valor (amount) deve ser um número inteiro de centavos maior ou igual a 1.',
  metadata_invalid: 'Metadata inválido: até 50 chaves, chaves com até 40 caracteres e valores de texto com até 500 caracteres.',
  not_found: 'Recurso não encontrado. Confira o id informado.',
  route_not_found: 'Rota não encontrada. Confira o método HTTP e o caminho (todas as rotas começam com /v1).',
  unauthenticated: 'Chave de API ausente ou inválida. Envie o cabeçalho Authorization: Bearer <sua chave svc_test_… ou svc_live_…>.',
  restricted_key: 'Esta chave restrita só pode criar pagamentos e consultar os pagamentos que criou. Use uma chave completa para esta operação.',
  live_mode_forbidden: 'Esta operação só existe no modo de teste. Use uma chave svc_test_….',
  idempotency_conflict: 'Esta Idempotency-Key já foi usada com outro corpo de requisição. Gere uma nova chave para um novo pagamento ou reenvie exatamente o mesmo corpo.',
  idempotency_in_progress: 'Uma requisição com esta Idempotency-Key ainda está em processamento. Aguarde alguns segundos e reenvie a mesma requisição.',
  payment_not_cancelable: 'Este pagamento não pode ser cancelado no status atual. Só pagamentos pendentes (não pagos) podem ser cancelados.',
  payment_already_paid: 'Este pagamento já foi pago e não pode ser cancelado. Para devolver o dinheiro, faça um reembolso.',
  payment_not_awaiting_method:
    'Este pagamento não aguarda a escolha da forma de pagamento: ela já foi feita ou o pagamento foi encerrado. Recarregue a página para ver a situação atual.',
  payment_not_simulatable: 'Só é possível simular o pagamento de um pagamento pendente no modo de teste.',
  payment_not_disputable:
    'Só é possível simular uma disputa em um pagamento Pix ou cartão pago (succeeded ou partially_refunded), com valor ainda não reembolsado e sem outra disputa em andamento.',
  dispute_not_open: 'Esta disputa não aguarda resposta: evidências só podem ser enviadas enquanto o status é open.',
  dispute_evidence_not_supported:
    'O provedor desta disputa não recebe evidências pela API. Responda a disputa no painel do provedor.',
  payment_not_refundable: 'Este pagamento não pode ser reembolsado no status atual. Só pagamentos pagos (succeeded ou partially_refunded) podem ser reembolsados.',
  refund_amount_exceeds_remaining: 'O valor do reembolso (amount) é maior que o valor que ainda pode ser reembolsado neste pagamento. Informe um valor menor ou omita amount para reembolsar todo o restante.',
  refund_not_supported: 'A conta do provedor deste pagamento não permite reembolsos pela API. Faça o reembolso no painel do provedor; ele aparecerá no pagamento após a sincronização.',
  no_eligible_account: 'Nenhuma conta de provedor conectada neste modo aceita este método de pagamento. Conecte uma conta que aceite o método ou escolha outro método.',
  method_not_available: 'O método de pagamento escolhido não está disponível para esta conta. Escolha pix, boleto ou card conforme as contas conectadas.',
  missing_document: 'O CPF ou CNPJ do cliente (customer.document) é exigido pelas contas disponíveis para este pagamento. Informe customer.document.',
  missing_email: 'O e-mail do cliente (customer.email) é exigido pelas contas disponíveis para este pagamento. Informe customer.email.',
  missing_phone: 'O telefone do cliente (customer.phone) é exigido pelas contas disponíveis para este pagamento. Informe customer.phone.',
  missing_address: 'O endereço do cliente (customer.address) é exigido para este pagamento. Informe customer.address completo.',
  invalid_credentials: 'O provedor recusou as credenciais informadas. Confira as credenciais da conta no painel do provedor.',
  provider_unavailable: 'O provedor de pagamento está indisponível no momento. Tente novamente em instantes.',
  provider_timeout: 'O provedor de pagamento não respondeu a tempo. Consulte o pagamento antes de tentar de novo.',
  provider_rate_limited: 'O provedor de pagamento limitou as requisições. Tente novamente em instantes.',
  provider_error: 'O provedor de pagamento retornou um erro. Tente novamente em instantes.',
  provider_rejected: 'O provedor de pagamento recusou a requisição. Confira os dados do pagamento.',
  all_providers_failed: 'Nenhuma conta de provedor conseguiu criar a cobrança agora. Nada foi cobrado; tente novamente em alguns instantes com a mesma Idempotency-Key.',
  card_declined: 'O cartão foi recusado pelo banco emissor. Peça ao cliente outro cartão ou outro método de pagamento.',
  webhook_rejected: 'Notificação recusada: autenticação inválida.',
  payouts_api_disabled: 'Os repasses pela API estão desligados para esta conta. O dono da conta deve ligá-los (comando npm run owner -- payouts enable, ou o painel) antes de criar repasses.',
  payout_limit_exceeded: 'Este repasse passaria do limite diário de repasses deste modo. Tente um valor menor ou amanhã; o dono da conta pode aumentar o limite.',
  payout_refused: 'O provedor recusou o repasse. Confira o destino e o valor; o repasse ficou registrado como failed com o motivo.',
  insufficient_balance: 'O saldo disponível na conta do provedor não cobre este repasse. Consulte GET /v1/balances e tente um valor menor.',
  card_expired: 'O cartão está vencido. Peça ao cliente outro cartão e cadastre-o de novo.',
  invalid_card: 'O cofre recusou o uso deste cartão: ele foi apagado, ou o código de segurança que o provedor exige já foi apagado. Peça ao cliente que cadastre o cartão de novo.',
  account_not_enabled:
    'Nenhuma conta conectada pode cobrar este cartão agora, ou o cofre de cartões não está ativado neste modo. Veja capabilities.card_vault em GET /v1/providers ou peça ao dono da conta que ative o cofre.',
  subaccount_not_active: 'A subconta não está ativa. Saques só saem de subcontas com status active: consulte GET /v1/subaccounts/{id} e, se estiver pending, conclua o cadastro no provedor.',
  csrf_invalid: 'Token CSRF ausente ou inválido. Recarregue o painel e envie o cabeçalho X-CSRF-Token com o csrf_token de GET /dashboard/api/me.',
  totp_required: 'Informe o código de 6 dígitos do seu aplicativo autenticador (totp_code).',
  rate_limited: 'Muitas tentativas. Aguarde o tempo indicado no cabeçalho Retry-After e tente novamente.',
  service_unavailable: 'Serviço temporariamente indisponível. Tente novamente em alguns instantes.',
  internal: 'Erro interno. Tente novamente; se persistir, contate o suporte informando o request id.',
};
