/** Portuguese names of the API's enumerations, shown in lists and badges (unknown values as they come). */
const STATUS: Record<string, string> = {
  requires_method: 'Aguardando método',
  pending: 'Pendente',
  processing: 'Processando',
  succeeded: 'Aprovado',
  failed: 'Falhou',
  canceled: 'Cancelado',
  refunded: 'Estornado',
  partially_refunded: 'Estornado em parte',
  active: 'Ativa',
  refused: 'Recusada',
  expired: 'Expirada',
  blocked: 'Bloqueada',
  inactive: 'Inativa',
  open: 'Aberta',
  under_review: 'Em análise',
  won: 'Ganha',
  lost: 'Perdida',
  paid: 'Pago',
  delivered: 'Entregue',
  not_sent: 'Não enviado',
  superseded: 'Substituído',
  queued: 'Na fila',
  running: 'Em andamento',
  completed: 'Concluída',
  done: 'Concluída',
  unsupported: 'Não suportada',
};

const METHOD: Record<string, string> = { pix: 'Pix', card: 'Cartão', boleto: 'Boleto' };

const TONE: Record<string, 'ok' | 'warn' | 'bad' | 'neutral'> = {
  succeeded: 'ok', paid: 'ok', active: 'ok', won: 'ok', delivered: 'ok', completed: 'ok', done: 'ok',
  pending: 'warn', processing: 'warn', requires_method: 'warn', open: 'warn', under_review: 'warn', queued: 'warn', running: 'warn',
  failed: 'bad', refused: 'bad', lost: 'bad', blocked: 'bad', not_sent: 'bad',
};

export const statusLabel = (status: string | null | undefined): string => (status ? (STATUS[status] ?? status) : '—');
export const statusTone = (status: string | null | undefined): string => (status ? (TONE[status] ?? 'neutral') : 'neutral');
export const methodLabel = (method: string | null | undefined): string => (method ? (METHOD[method] ?? method) : '—');

export const PAYMENT_STATUSES = ['requires_method', 'pending', 'processing', 'succeeded', 'failed', 'canceled', 'refunded', 'partially_refunded'];
export const METHODS = ['pix', 'card', 'boleto'];

export const AUDIT_ACTIONS: Record<string, string> = {
  'owner.signed_up': 'Conta criada',
  'session.signed_in': 'Entrada no painel',
  'session.sign_in_failed': 'Tentativa de entrada recusada',
  'session.signed_out': 'Saída do painel',
  'session.revoked_all': 'Saída de todos os dispositivos',
  'totp.setup_started': 'Verificação em duas etapas: configuração iniciada',
  'totp.enabled': 'Verificação em duas etapas ativada',
  'totp.disabled': 'Verificação em duas etapas desativada',
  'api_key.created': 'Chave de API criada',
  'api_key.revoked': 'Chave de API revogada',
  'payout_settings.updated': 'Configuração de repasses alterada',
  'payout_destination.created': 'Chave Pix de repasse salva',
  'api.request': 'Alteração pela API do painel',
  'oauth_app.created': 'App OAuth registrado',
  'oauth_app.deleted': 'App OAuth excluído',
  'oauth_authorization.revoked': 'Autorização de app OAuth revogada',
};
export const auditActionLabel = (action: string): string => AUDIT_ACTIONS[action] ?? action;
