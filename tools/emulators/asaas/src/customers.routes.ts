/**
 * `POST /customers`, `GET /customers` (filters `cpfCnpj`, `externalReference`, `email`, `name`) and
 * `GET /customers/:id`: a charge needs a customer of the same account first.
 */
import { Router } from 'express';
import { asaasErrors } from './asaas-errors';
import { newCustomerId } from './asaas-ids';
import { customerJson, listJson, pageOf } from './asaas-json';
import { accountOf } from './access-token';
import { documentDigits } from '../../kit';
import type { EmulatorState } from './emulator-state';
import { sendJson } from './json-body';
import { asBody, optionalBoolean, optionalString, queryParam, requiredString } from './request-fields';
import { spDate } from './sao-paulo-time';

export function customerRoutes(state: EmulatorState): Router {
  const router = Router();

  router.post('/customers', (req, res) => {
    const body = asBody(req.body);
    const name = requiredString(body, 'name', 255);
    const cpfCnpj = documentDigits(requiredString(body, 'cpfCnpj', 18));
    if (!cpfCnpj) throw asaasErrors.invalid('cpfCnpj', 'O CPF/CNPJ informado é inválido.');
    const email = optionalString(body, 'email', 255);
    if (email !== undefined && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) throw asaasErrors.invalid('email', 'O email informado é inválido.');
    optionalBoolean(body, 'notificationDisabled');
    const phone = optionalString(body, 'phone', 20);
    const mobilePhone = optionalString(body, 'mobilePhone', 20);
    const externalReference = optionalString(body, 'externalReference', 255);
    const customer = state.createCustomer({
      id: newCustomerId(),
      accountId: accountOf(res).id,
      dateCreated: spDate(state.now()),
      name,
      cpfCnpj,
      ...(email ? { email } : {}),
      ...(phone ? { phone } : {}),
      ...(mobilePhone ? { mobilePhone } : {}),
      ...(externalReference ? { externalReference } : {}),
    });
    sendJson(res, 200, customerJson(customer));
  });

  router.get('/customers', (req, res) => {
    const query = req.query as Record<string, unknown>;
    const cpfCnpj = queryParam(query, 'cpfCnpj')?.replace(/\D/g, '');
    const externalReference = queryParam(query, 'externalReference');
    const email = queryParam(query, 'email');
    const name = queryParam(query, 'name');
    const found = state.findCustomers(
      accountOf(res).id,
      (c) =>
        (cpfCnpj === undefined || c.cpfCnpj === cpfCnpj) &&
        (externalReference === undefined || c.externalReference === externalReference) &&
        (email === undefined || c.email === email) &&
        (name === undefined || c.name.toLowerCase().includes(name.toLowerCase())),
    );
    sendJson(res, 200, listJson(found, pageOf(query), customerJson));
  });

  router.get('/customers/:id', (req, res) => {
    const customer = state.getCustomer(accountOf(res).id, req.params['id'] ?? '');
    if (!customer) throw asaasErrors.notFound('Cliente');
    sendJson(res, 200, customerJson(customer));
  });

  return router;
}
