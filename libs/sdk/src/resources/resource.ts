import type { ApiResponse, LastResponse, Query, RequestOptions, RequestSpec, Transport, WithLastResponse } from '../http/transport';
import type { List, PageParams } from '../types/common.types';

/**
 * Per-call options of routes that accept Idempotency-Key (kept for callers of earlier versions;
 * every method now takes the full RequestOptions).
 */
export type IdempotentCallOptions = RequestOptions;

/**
 * What a paginated `list(...)` returns: a promise of the first page (with `lastResponse`), which
 * is also an async iterable of every item of every page, fetched as you iterate:
 *
 *   const page = await orquestra.payments.list({ limit: 20 });           // one page
 *   for await (const payment of orquestra.payments.list({ limit: 100 })) // all of them
 */
export interface ListPromise<T> extends Promise<WithLastResponse<List<T>>>, AsyncIterable<T> {
  /** Every item, up to `max` (required: a list can be very long). */
  toArray(options: { max: number }): Promise<T[]>;
}

export const segment = (id: string): string => encodeURIComponent(id);

/** Sets `lastResponse` on the body as a non-enumerable property (bodies that are not objects are returned as they are). */
export function withLastResponse<T>(response: ApiResponse<T>): WithLastResponse<T> {
  const { data } = response;
  if (typeof data === 'object' && data !== null) {
    const lastResponse: LastResponse = {
      requestId: response.headers.get('x-request-id'),
      statusCode: response.status,
      headers: response.headers,
      idempotencyKey: response.idempotencyKey,
    };
    Object.defineProperty(data, 'lastResponse', { value: lastResponse, enumerable: false, configurable: true, writable: false });
  }
  return data as WithLastResponse<T>;
}

/** Shared plumbing of the resource classes. */
export abstract class Resource {
  constructor(protected readonly transport: Transport) {}

  protected async call<T>(spec: RequestSpec, options?: RequestOptions): Promise<WithLastResponse<T>> {
    return withLastResponse(await this.transport.request<T>(spec, options));
  }

  /**
   * One page now (the returned promise) and, when iterated, every item page after page (follows
   * `has_more` with `starting_after` = the last id, keeping the other filters and the options).
   */
  protected pageList<T extends { id: string }>(path: string, params: PageParams & object, options?: RequestOptions): ListPromise<T> {
    const page = (starting_after: string | undefined) =>
      this.call<List<T>>({ method: 'GET', path, query: { ...(params as Query), starting_after } }, options);
    const first = page(params.starting_after);
    async function* items(): AsyncGenerator<T> {
      let current = await first;
      for (;;) {
        yield* current.data;
        const last = current.data[current.data.length - 1];
        if (!current.has_more || !last) return;
        current = await page(last.id);
      }
    }
    const toArray = async ({ max }: { max: number }): Promise<T[]> => {
      const all: T[] = [];
      if (max <= 0) return all;
      for await (const item of items()) {
        all.push(item);
        if (all.length >= max) break;
      }
      return all;
    };
    return Object.assign(first, { [Symbol.asyncIterator]: items, toArray });
  }

  /** Every item of a list, page after page (the `listAll` methods); nothing is sent before the first `next()`. */
  protected async *paginate<T extends { id: string }>(path: string, params: PageParams & object, options?: RequestOptions): AsyncGenerator<T> {
    yield* this.pageList<T>(path, params, options);
  }
}
