import { parseTaxId, taxIdKey } from '@orquestra/platform';

/**
 * GET /v1/payments?q=: what a merchant types to find a payment — its id, or the buyer's e-mail,
 * name or document. Builds one store filter; pure.
 */
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The CPF/CNPJ as the search index keeps it, when `q` is one: a valid CPF or CNPJ (alphanumeric
 * CNPJ included, any case, punctuation allowed), or any 11 or 14 digits (payments taken before the
 * gateway checked check digits may carry such a document).
 */
export function documentDigits(q: string): string | undefined {
  const taxId = parseTaxId(q);
  if (taxId) return taxId.value;
  if (!/^[\d.\-/ ]+$/.test(q)) return undefined;
  const digits = q.replace(/\D/g, '');
  return digits.length === 11 || digits.length === 14 ? digits : undefined;
}

/** The CPF/CNPJ of a customer as the search index keeps it (digits and upper-case letters), or '' when absent. */
export function searchableDocument(document: string | undefined): string {
  return taxIdKey(document);
}

export function searchFilter(q: string): Record<string, unknown> {
  const text = q.trim();
  if (/^pay_[0-9a-z]{26}$/.test(text)) return { _id: text };
  const digits = documentDigits(text);
  if (digits) return { $or: [{ 'search.document': digits }, { 'customer.document': text }] };
  if (text.includes('@')) return { 'customer.email': { $regex: `^${escapeRegex(text)}$`, $options: 'i' } };
  return { 'customer.name': { $regex: escapeRegex(text), $options: 'i' } };
}
