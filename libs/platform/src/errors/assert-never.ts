/**
 * The default branch of an exhaustive switch: `value` has type `never` only while every case is
 * handled, so a new member of the union (a provider status, a charge outcome) fails to compile
 * until it is mapped. Reaching it at run time means a value from outside the type (bad data).
 */
export function assertNever(value: never): never {
  throw new Error(`unhandled value: ${String(value)}`);
}
