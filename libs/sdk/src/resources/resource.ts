import type { Query, RequestSpec, Transport } from '../http/transport';
import type { List, PageParams } from '../types/common.types';

/** Per-call options of routes that accept Idempotency-Key. */
export interface IdempotentCallOptions {
  /** Your own key (≤ 255 printable characters); by default a fresh UUID is sent. */
  idempotencyKey?: string;
}

export const segment = (id: string): string => encodeURIComponent(id);

/** Shared plumbing of the resource classes. */
export abstract class Resource {
  constructor(protected readonly transport: Transport) {}

  protected async call<T>(spec: RequestSpec): Promise<T> {
    return (await this.transport.request<T>(spec)).data;
  }

  /** Every item of a list, page after page (follows `has_more` with `starting_after`). */
  protected async *paginate<T extends { id: string }, P extends PageParams>(path: string, params: P): AsyncGenerator<T> {
    let cursor = params.starting_after;
    for (;;) {
      const page = await this.call<List<T>>({ method: 'GET', path, query: { ...(params as unknown as Query), starting_after: cursor } });
      yield* page.data;
      const last = page.data[page.data.length - 1];
      if (!page.has_more || !last) return;
      cursor = last.id;
    }
  }
}
