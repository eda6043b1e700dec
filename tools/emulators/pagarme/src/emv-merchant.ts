/** The receiver Pagar.me writes into a BR Code: the account's name, which EMV fields 59/60 limit. */
import type { Merchant } from '../../kit';

/** EMV fields 59/60 take plain upper-case ASCII of bounded length. */
export function merchantFor(accountName: string, city: string): Merchant {
  const plain = (text: string, max: number) =>
    text.normalize('NFD').replace(/[^\x20-\x7e]/g, '').toUpperCase().trim().slice(0, max) || 'PAGARME SANDBOX';
  return { name: plain(accountName, 25), city: plain(city, 15) };
}
