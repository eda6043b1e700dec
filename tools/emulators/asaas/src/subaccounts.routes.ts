/**
 * `POST /v3/accounts`, `GET /v3/accounts` (filters cpfCnpj, email, walletId, externalReference),
 * `GET /v3/accounts/:id` (a subaccount of the calling account) and `GET /v3/myAccount/status` (the
 * calling account's own registration status: a subaccount's as the control route left it, a
 * sandbox root account's approved). See subaccounts.ts.
 */
import { Router } from 'express';
import { documentDigits } from '../../kit';
import { accountOf } from './access-token';
import { asaasErrors } from './asaas-errors';
import { newUuid } from './asaas-ids';
import { listJson, pageOf } from './asaas-json';
import type { EmulatorState } from './emulator-state';
import { sendJson } from './json-body';
import { reaisTextToCents } from './money-json';
import { asBody, optionalString, queryParam, requiredString, type Body } from './request-fields';
import { spDate } from './sao-paulo-time';
import { COMPANY_TYPES, newSubaccountApiKey, PENDING_STATUS, statusFor, statusJson, subaccountJson } from './subaccounts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The fields Asaas keeps, validated as it refuses them (400 `invalid_<field>`). */
function accountFields(body: Body): Body {
  const name = requiredString(body, 'name', 255);
  const email = requiredString(body, 'email', 255);
  if (!EMAIL.test(email)) throw asaasErrors.invalid('email', 'O email informado é inválido.');
  const loginEmail = optionalString(body, 'loginEmail', 255);
  const cpfCnpj = documentDigits(requiredString(body, 'cpfCnpj', 18));
  if (!cpfCnpj) throw asaasErrors.invalid('cpfCnpj', 'O CPF/CNPJ informado é inválido.');
  const person = cpfCnpj.length === 11;
  const birthDate = person ? requiredString(body, 'birthDate', 10) : optionalString(body, 'birthDate', 10);
  if (birthDate !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(birthDate)) throw asaasErrors.invalid('birthDate', 'A data de nascimento deve estar no formato AAAA-MM-DD.');
  const companyType = person ? optionalString(body, 'companyType', 20) : requiredString(body, 'companyType', 20);
  if (companyType !== undefined && !(COMPANY_TYPES as readonly string[]).includes(companyType)) throw asaasErrors.invalid('companyType', 'O tipo de empresa informado é inválido.');
  const mobilePhone = requiredString(body, 'mobilePhone', 20);
  if (!/^\d{10,11}$/.test(mobilePhone.replace(/\D/g, ''))) throw asaasErrors.invalid('mobilePhone', 'O celular informado é inválido.');
  const income = body['incomeValue'];
  const incomeCents = typeof income === 'string' ? reaisTextToCents(income) : undefined;
  if (incomeCents === undefined || incomeCents <= 0) throw asaasErrors.invalid('incomeValue', 'O campo incomeValue deve ser informado.');
  const address = requiredString(body, 'address', 255);
  const addressNumber = requiredString(body, 'addressNumber', 20);
  const complement = optionalString(body, 'complement', 255);
  const province = requiredString(body, 'province', 255);
  const postalCode = requiredString(body, 'postalCode', 9).replace(/\D/g, '');
  if (postalCode.length !== 8) throw asaasErrors.invalid('postalCode', 'O CEP informado é inválido.');
  const phone = optionalString(body, 'phone', 20);
  return {
    name,
    email,
    ...(loginEmail ? { loginEmail } : {}),
    cpfCnpj,
    ...(birthDate ? { birthDate } : {}),
    ...(companyType ? { companyType } : {}),
    mobilePhone,
    ...(phone ? { phone } : {}),
    incomeValue: income as string,
    address,
    addressNumber,
    ...(complement ? { complement } : {}),
    province,
    postalCode,
  };
}

export function subaccountRoutes(state: EmulatorState): Router {
  const router = Router();

  router.post('/accounts', (req, res) => {
    const parent = accountOf(res);
    if (state.subaccountOfKey(parent.apiKey)) throw asaasErrors.invalidAction('Uma subconta não pode criar subcontas.');
    const body = asBody(req.body);
    const fields = accountFields(body);
    if (state.subaccountWithEmail(String(fields['email']))) throw asaasErrors.invalid('email', `O email ${String(fields['email'])} já está em uso.`);
    const externalReference = optionalString(body, 'externalReference', 255);
    const apiKey = newSubaccountApiKey();
    const { account } = state.registerAccount({ api_key: apiKey });
    const sub = state.createSubaccount({
      id: newUuid(),
      parentAccountId: parent.id,
      apiKey,
      walletId: account.walletId,
      dateCreated: spDate(state.now()),
      fields,
      ...(externalReference ? { externalReference } : {}),
      status: { ...PENDING_STATUS },
    });
    sendJson(res, 200, subaccountJson(sub, true));
  });

  router.get('/accounts', (req, res) => {
    const filters: Record<string, (value: string) => (s: ReturnType<EmulatorState['subaccountsOf']>[number]) => boolean> = {
      cpfCnpj: (v) => (s) => s.fields['cpfCnpj'] === v.replace(/\D/g, ''),
      email: (v) => (s) => s.fields['email'] === v,
      walletId: (v) => (s) => s.walletId === v,
      externalReference: (v) => (s) => s.externalReference === v,
    };
    let subs = state.subaccountsOf(accountOf(res).id);
    for (const [name, filter] of Object.entries(filters)) {
      const value = queryParam(req.query, name);
      if (value !== undefined) subs = subs.filter(filter(value));
    }
    sendJson(res, 200, listJson(subs, pageOf(req.query), (s) => subaccountJson(s)));
  });

  router.get('/accounts/:id', (req, res) => {
    const sub = state.subaccount(req.params['id'] ?? '');
    if (!sub || sub.parentAccountId !== accountOf(res).id) throw asaasErrors.notFound('Subconta');
    sendJson(res, 200, subaccountJson(sub));
  });

  router.get('/myAccount/status', (_req, res) => {
    const account = accountOf(res);
    const sub = state.subaccountOfKey(account.apiKey);
    sendJson(res, 200, sub ? statusJson(sub.id, sub.status) : statusJson(account.id, statusFor('active')));
  });

  return router;
}
