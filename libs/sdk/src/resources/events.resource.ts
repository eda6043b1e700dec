import type { Query } from '../http/transport';
import type { List } from '../types/common.types';
import type { Event, ListEventsParams } from '../types/event.types';
import { Resource, segment } from './resource';

/** /v1/events: the unified event log, newest first (full keys). */
export class EventsResource extends Resource {
  list(params: ListEventsParams = {}): Promise<List<Event>> {
    return this.call({ method: 'GET', path: '/v1/events', query: params as Query });
  }

  listAll(params: ListEventsParams = {}): AsyncGenerator<Event> {
    return this.paginate<Event, ListEventsParams>('/v1/events', params);
  }

  retrieve(id: string): Promise<Event> {
    return this.call({ method: 'GET', path: `/v1/events/${segment(id)}` });
  }
}
