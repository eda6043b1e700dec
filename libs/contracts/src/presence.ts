// Helpers of the converters between the contracts' shapes and the gRPC messages, whose fields have
// the same presence (proto3 `optional`).

/** Every key of T, optional ones included: an object literal of this type must name them all. */
export type EveryField<T> = { [K in keyof Required<T>]: T[K] };

/** Drops the keys whose value is undefined, so an absent field is absent (not a key holding undefined). */
export function present<T extends object>(fields: T): T {
  return Object.fromEntries(Object.entries(fields).filter((entry) => entry[1] !== undefined)) as T;
}
