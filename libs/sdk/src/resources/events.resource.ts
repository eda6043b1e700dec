import type { RequestOptions, WithLastResponse } from '../http/transport';
import type { Event, ListEventsParams } from '../types/event.types';
import { Resource, segment, type ListPromise } from './resource';

/** /v1/events: the unified event log, newest first (full keys). */
export class EventsResource extends Resource {
  list(params: ListEventsParams = {}, options?: RequestOptions): ListPromise<Event> {
    return this.pageList<Event>('/v1/events', params, options);
  }

  listAll(params: ListEventsParams = {}, options?: RequestOptions): AsyncGenerator<Event> {
    return this.paginate<Event>('/v1/events', params, options);
  }

  retrieve(id: string, options?: RequestOptions): Promise<WithLastResponse<Event>> {
    return this.call({ method: 'GET', path: `/v1/events/${segment(id)}` }, options);
  }
}
