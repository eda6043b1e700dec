/**
 * The routing dry-run's reasons (English phrases of services/routing's route planner, joined by
 * "; ") said in Portuguese for the owner; a phrase not known here is shown as it came.
 */
const PHRASES: Array<[RegExp, (...groups: string[]) => string]> = [
  [/^eligible; priority (\d+)$/, (priority) => `elegível; prioridade ${priority}`],
  [/^eligible$/, () => 'elegível'],
  [/^priority (\d+)$/, (priority) => `prioridade ${priority}`],
  [/^another account was forced \(provider_account_id\)$/, () => 'outra conta foi forçada (provider_account_id)'],
  [/^forced by provider_account_id$/, () => 'forçada por provider_account_id'],
  [/^account disabled$/, () => 'conta desativada'],
  [/^does not accept (\w+)$/, (method) => `não aceita ${method}`],
  [/^no hosted checkout for (\w+).*$/, (method) => `sem checkout hospedado para ${method} (envie card.token com provider_account_id)`],
  [/^does not charge saved cards \(vault\)$/, () => 'não cobra cartões salvos (cofre)'],
  [/^needs the card security code, already deleted from the vault$/, () => 'exige o código de segurança, já apagado do cofre'],
  [/^requires customer\.(\w+) for (\w+)$/, (field, method) => `exige customer.${field} para ${method}`],
  [/^target of rule (\S+)$/, (rule) => `alvo da regra ${rule}`],
  [/^fallback after rule (\S+)'s targets$/, (rule) => `reserva depois dos alvos da regra ${rule}`],
  [/^not a target of rule (\S+) \(no fallback\)$/, (rule) => `fora dos alvos da regra ${rule} (sem reserva)`],
  [/^ranked last: circuit breaker open$/, () => 'por último: disjuntor aberto'],
  [/^ranked last: circuit breaker half-open.*$/, () => 'por último: disjuntor em teste de recuperação'],
  [/^ranked last: success rate (\d+)% over (\d+) recent attempts$/, (rate, attempts) => `por último: ${rate}% de sucesso em ${attempts} tentativas recentes`],
];

export function routingReason(reason: string): string {
  return reason
    .split('; ')
    .map((phrase) => {
      for (const [pattern, say] of PHRASES) {
        const match = pattern.exec(phrase);
        if (match) return say(...match.slice(1).map((group) => group ?? ''));
      }
      return phrase;
    })
    .join('; ');
}
