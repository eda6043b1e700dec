/**
 * Card-number checks every card-taking emulator makes before its own test-number table: the Luhn
 * check digit (ISO/IEC 7812), which all of the emulated providers verify and answer in their own
 * error shape.
 */

/** True when the digits' Luhn sum is a multiple of 10. `digits` holds digits only (callers check). */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}
