/**
 * A plausible bank boleto (FEBRABAN layout) for the emulators: the 44-digit barcode and its
 * 47-digit linha digitável, with the real check digits, so a client validating them accepts ours.
 *
 * Barcode: bank (3) · currency 9 · general check digit (mod 11) · due factor (4) · amount in
 * centavos (10) · free field (25, the bank's own: here random digits).
 * Line: field 1 = bank, 9, free[0..5) + mod 10 · field 2 = free[5..15) + mod 10 · field 3 =
 * free[15..25) + mod 10 · field 4 = general check digit · field 5 = due factor + amount.
 * The due factor counts days from 1997-10-07 and, having reached 9999 on 2025-02-21, restarted
 * at 1000 on 2025-02-22 (FEBRABAN's rollover).
 */
import { randomInt } from 'node:crypto';

const DAY_MS = 86_400_000;
const ROLLOVER = Date.UTC(2025, 1, 22);
const BASE_1997 = Date.UTC(1997, 9, 7);

export function mod10(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    const product = Number(digits[i]) * weight;
    sum += product > 9 ? product - 9 : product;
    weight = weight === 2 ? 1 : 2;
  }
  return (10 - (sum % 10)) % 10;
}

/** The barcode's general check digit over the other 43 digits (weights 2..9 from the right). */
export function mod11(digits: string): number {
  let sum = 0;
  let weight = 2;
  for (let i = digits.length - 1; i >= 0; i -= 1) {
    sum += Number(digits[i]) * weight;
    weight = weight === 9 ? 2 : weight + 1;
  }
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? 1 : dv;
}

/** The 4-digit due factor of a YYYY-MM-DD due date. */
export function dueFactor(dueDate: string): string {
  const day = Date.parse(`${dueDate}T00:00:00Z`);
  const factor = day >= ROLLOVER ? 1000 + Math.round((day - ROLLOVER) / DAY_MS) : Math.round((day - BASE_1997) / DAY_MS);
  return String(factor % 10_000).padStart(4, '0');
}

export interface Boleto {
  barcode: string;
  digitableLine: string;
}

/** A new boleto of `amount` centavos due on `dueDate` (YYYY-MM-DD), issued by `bank` (3 digits). */
export function newBoleto(amount: number, dueDate: string, bank = '341', freeField?: string): Boleto {
  if (!Number.isSafeInteger(amount) || amount < 0 || amount > 9_999_999_999) throw new RangeError(`amount out of range: ${amount}`);
  const free = freeField ?? Array.from({ length: 25 }, () => String(randomInt(10))).join('');
  if (!/^\d{25}$/.test(free) || !/^\d{3}$/.test(bank)) throw new RangeError('bank must be 3 digits and the free field 25');
  const tail = `${dueFactor(dueDate)}${String(amount).padStart(10, '0')}`;
  const general = mod11(`${bank}9${tail}${free}`);
  const barcode = `${bank}9${general}${tail}${free}`;
  const f1 = `${bank}9${free.slice(0, 5)}`;
  const f2 = free.slice(5, 15);
  const f3 = free.slice(15, 25);
  const digitableLine = `${f1}${mod10(f1)}${f2}${mod10(f2)}${f3}${mod10(f3)}${general}${tail}`;
  return { barcode, digitableLine };
}

/** True when a 47-digit line has all four check digits right (what a bank app checks first). */
export function isValidDigitableLine(line: string): boolean {
  if (!/^\d{47}$/.test(line)) return false;
  const f1 = line.slice(0, 9);
  const f2 = line.slice(10, 20);
  const f3 = line.slice(21, 31);
  if (mod10(f1) !== Number(line[9]) || mod10(f2) !== Number(line[20]) || mod10(f3) !== Number(line[31])) return false;
  const barcodeWithoutDv = `${line.slice(0, 4)}${line.slice(33, 47)}${line.slice(4, 9)}${f2}${f3}`;
  return mod11(barcodeWithoutDv) === Number(line[32]);
}
