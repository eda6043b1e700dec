/** Proto3 strings are never absent: empty means "not set", which the public JSON shows as null. */
export function nullIfEmpty(value: string | undefined | null): string | null {
  return value === undefined || value === null || value === '' ? null : value;
}
