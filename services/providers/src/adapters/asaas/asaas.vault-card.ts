/**
 * A card from the vault, charged at Asaas in the create call (docs.asaas.com "Cobrança com cartão
 * de crédito"): `billingType: CREDIT_CARD` with `creditCard{holderName, number, expiryMonth,
 * expiryYear, ccv}`, `creditCardHolderInfo{name, email, cpfCnpj, postalCode, addressNumber,
 * addressComplement?, phone}` from our customer, and the buyer's `remoteIp`. Asaas authorizes at
 * once: approved → the charge comes back CONFIRMED (paid); refused → HTTP 400 `invalid_creditCard`
 * with a reason and no charge, which is answered as a failed charge (declineOfRefusal).
 *
 * Asaas requires the security code (`ccv`), so the class says `vaultCards.needsCvc: true`; routing
 * keeps cards whose code the vault deleted away from it, and a card without one reaching here is
 * refused before any call. The holder fields are required by Asaas: a vault card at Asaas needs
 * the customer's document, e-mail, phone, address zip and number, and IP.
 *
 * Installments: one payment only here (Asaas splits an installment plan into one charge per
 * installment, `installmentCount`, which our one-charge-per-payment model does not read yet).
 *
 * The number and ccv go only into the JSON body; refusals carry Asaas's description with any long
 * digit run masked, never the request.
 */
import { ProviderError, type CreateChargeInput, type ProviderCharge, type VaultCardInput } from '../provider-adapter';
import { declineReason, type CardDeclineCode } from '../../domain/card-declines';
import { brazilianPhone, documentDigits } from './asaas.transformers';

export interface AsaasCreditCard {
  holderName: string;
  number: string;
  expiryMonth: string;
  expiryYear: string;
  ccv: string;
}

export interface AsaasCreditCardHolderInfo {
  name: string;
  email: string;
  cpfCnpj: string;
  postalCode: string;
  addressNumber: string;
  addressComplement?: string;
  phone: string;
}

export interface AsaasCardFields {
  creditCard: AsaasCreditCard;
  creditCardHolderInfo: AsaasCreditCardHolderInfo;
  remoteIp: string;
}

/** The customer fields a vault card at Asaas needs (creditCardHolderInfo and remoteIp). */
export const ASAAS_VAULT_CARD_CUSTOMER_FIELDS = ['document', 'email', 'phone', 'address.zip', 'address.number', 'ip'] as const;

const refuse = (field: string, publicMessage: string) => new ProviderError('rejected', 'provider_rejected', `asaas create: vault card without ${field}`, undefined, { name: field, publicMessage });

/** The card and holder fields for the create call; throws `rejected` on the missing field before any request. */
export function vaultCardFields(input: CreateChargeInput, card: VaultCardInput): AsaasCardFields {
  if (!card.cvc) throw refuse('card', 'O Asaas exige o código de segurança do cartão, que o cofre já apagou: peça ao comprador para informar o cartão de novo.');
  if ((input.card?.installments ?? 1) > 1) throw refuse('card.installments', 'Cartão salvo no Asaas é cobrado à vista: envie installments 1 ou use outra conta para parcelar.');
  const customer = input.customer;
  const cpfCnpj = documentDigits(customer.document);
  if (!cpfCnpj) throw refuse('customer.document', 'O Asaas exige o CPF ou CNPJ do titular do cartão: informe customer.document.');
  const email = customer.email?.trim();
  if (!email) throw refuse('customer.email', 'O Asaas exige o e-mail do titular do cartão: informe customer.email.');
  const phone = brazilianPhone(customer.phone);
  if (!phone) throw refuse('customer.phone', 'O Asaas exige o telefone do titular do cartão (DDD e número): informe customer.phone.');
  const postalCode = (customer.address?.zip ?? '').replace(/\D/g, '');
  if (postalCode.length !== 8) throw refuse('customer.address.zip', 'O Asaas exige o CEP do titular do cartão: informe customer.address.zip.');
  const addressNumber = customer.address?.number?.trim();
  if (!addressNumber) throw refuse('customer.address.number', 'O Asaas exige o número do endereço do titular do cartão: informe customer.address.number.');
  const remoteIp = customer.ip?.trim();
  if (!remoteIp) throw refuse('customer.ip', 'O Asaas exige o IP do comprador para cobrar cartão: informe customer.ip.');
  const complement = customer.address?.complement?.trim();
  return {
    creditCard: {
      holderName: card.holderName.trim(),
      number: card.number,
      expiryMonth: String(card.expMonth).padStart(2, '0'),
      expiryYear: String(card.expYear),
      ccv: card.cvc,
    },
    creditCardHolderInfo: {
      name: customer.name.trim() || card.holderName.trim(),
      email,
      cpfCnpj,
      postalCode,
      addressNumber,
      ...(complement ? { addressComplement: complement } : {}),
      phone,
    },
    remoteIp,
  };
}

/** Asaas's refusal reason, with any card-number-like digit run masked. */
export function maskedReason(description: string | undefined): string {
  return (description ?? '').replace(/\d{12,19}/g, '[número]').slice(0, 300);
}

/** Asaas gives only a Portuguese description on a refusal: its words decide our decline code. */
export function declineCodeOf(description: string): CardDeclineCode {
  const text = description.toLowerCase();
  if (/saldo|limite/.test(text)) return 'insufficient_funds';
  if (/vencid|validade|expirad/.test(text)) return 'expired_card';
  if (/código de segurança|ccv|cvv/.test(text)) return 'incorrect_cvc';
  if (/análise de risco/.test(text)) return 'card_declined';
  return 'card_declined';
}

/**
 * A card Asaas refused in the create call: a failed charge (no charge exists at Asaas, so its id
 * is our external reference, which nothing at Asaas carries).
 */
export function declineOfRefusal(reference: string, amount: number, description: string | undefined): ProviderCharge {
  const failureCode = declineCodeOf(maskedReason(description));
  return { providerPaymentId: reference, status: 'failed', amount, amountPaid: 0, nextAction: { type: 'none' }, failureCode, failureReason: declineReason(failureCode) };
}
