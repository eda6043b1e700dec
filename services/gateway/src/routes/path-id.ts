import { AppError, isAppError } from '@orquestra/platform';
import type { Request } from 'express';
import type { ZodType } from 'zod';

/** The `:id` of a route; an id that cannot exist is a 404 straight away, as the backend would answer. */
export function pathIdOf(req: Request, schema: ZodType<string>): string {
  const parsed = schema.safeParse(req.params['id']);
  if (!parsed.success) throw new AppError('not_found', { param: 'id' });
  return parsed.data;
}

/**
 * Runs a downstream call about the resource in the path. Services name the missing resource in
 * their own terms (`provider_account_id`); on these routes it is the path's `id`.
 */
export async function aboutPathId<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isAppError(error) && error.code === 'not_found') throw new AppError('not_found', { param: 'id', message: error.message, cause: error });
    throw error;
  }
}
