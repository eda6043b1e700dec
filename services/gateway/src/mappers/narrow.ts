/**
 * Narrows a proto string to a documented enum value. An unknown value is a contract break between
 * services: it fails loudly (500, logged) rather than showing a client a value it cannot act on.
 */
export function oneOf<T extends string>(allowed: readonly T[], value: string, field: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new Error(`a downstream service answered an undocumented ${field}: ${JSON.stringify(value)}`);
}
