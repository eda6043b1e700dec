import { AppError } from '@orquestra/platform';
import type { RuleView } from './route-planner';
import { CUSTOMER_FIELDS } from './route-planner';

const METHODS = ['pix', 'card', 'boleto'];

export interface RuleDraft {
  name: string;
  conditions: RuleView['conditions'];
  target: RuleView['target'];
}

const invalid = (param: string, message: string) => new AppError('parameter_invalid', { param, message });

/**
 * Checks a rule against what the platform can route: known methods and customer fields, a sane
 * amount range, and a target made of this merchant's connected accounts in this mode. The gateway
 * validates the shape first; these are the checks that need the account list.
 */
export function validateRule(draft: RuleDraft, connectedAccountIds: Set<string>): void {
  const { conditions, target } = draft;
  if (!draft.name.trim()) throw new AppError('parameter_missing', { param: 'name', message: 'Dê um nome à regra (name).' });
  conditions.methods.forEach((method, i) => {
    if (!METHODS.includes(method)) throw invalid(`conditions.methods[${i}]`, `Método desconhecido: ${method}. Use pix, card ou boleto.`);
  });
  conditions.customer_has.forEach((field, i) => {
    if (!(CUSTOMER_FIELDS as readonly string[]).includes(field)) {
      throw invalid(`conditions.customer_has[${i}]`, `Dado do cliente desconhecido: ${field}. Use document, email, phone ou address.`);
    }
  });
  if (conditions.amount_min < 0) throw invalid('conditions.amount_min', 'amount_min deve ser um inteiro de centavos maior ou igual a 0.');
  if (conditions.amount_max < 0) throw invalid('conditions.amount_max', 'amount_max deve ser um inteiro de centavos maior ou igual a 0.');
  if (conditions.amount_max > 0 && conditions.amount_min > conditions.amount_max) {
    throw invalid('conditions.amount_max', 'amount_max deve ser maior ou igual a amount_min.');
  }
  const checkAccount = (id: string, param: string) => {
    if (!connectedAccountIds.has(id)) throw invalid(param, `A conta ${id} não está conectada neste modo. Use um id de GET /v1/provider-accounts.`);
  };
  if (target.type === 'accounts') {
    if (target.accounts.length === 0) throw new AppError('parameter_missing', { param: 'target.accounts', message: 'Informe ao menos uma conta em target.accounts.' });
    if (new Set(target.accounts).size !== target.accounts.length) throw invalid('target.accounts', 'Cada conta pode aparecer uma só vez em target.accounts.');
    target.accounts.forEach((id, i) => checkAccount(id, `target.accounts[${i}]`));
  } else if (target.type === 'weighted') {
    if (target.weights.length === 0) throw new AppError('parameter_missing', { param: 'target.weights', message: 'Informe ao menos uma conta em target.weights.' });
    target.weights.forEach((w, i) => {
      checkAccount(w.account_id, `target.weights[${i}].account_id`);
      if (!Number.isInteger(w.percentage) || w.percentage < 1 || w.percentage > 100) {
        throw invalid(`target.weights[${i}].percentage`, 'Cada percentage deve ser um inteiro de 1 a 100.');
      }
    });
    if (new Set(target.weights.map((w) => w.account_id)).size !== target.weights.length) {
      throw invalid('target.weights', 'Cada conta pode aparecer uma só vez em target.weights.');
    }
    const total = target.weights.reduce((sum, w) => sum + w.percentage, 0);
    if (total !== 100) throw invalid('target.weights', `As porcentagens de target.weights devem somar 100 (somam ${total}).`);
  } else {
    throw invalid('target.type', 'target.type deve ser accounts (lista ordenada) ou weighted (porcentagens).');
  }
}
