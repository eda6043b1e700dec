import type { notifications } from '@orquestra/contracts';
import type { EventJson, EventListJson } from '../schemas/event.response.schema';

function parseObject(json: string): Record<string, unknown> | null {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** An event as the public API shows it (§6): `data.object` is the resource's public JSON. */
export function toEventJson(event: notifications.Event): EventJson {
  return {
    id: event.id,
    object: 'event',
    type: event.type,
    created: event.created,
    data: { object: parseObject(event.data_object_json) },
  };
}

export function toEventListJson(response: notifications.ListEventsResponse): EventListJson {
  return { object: 'list', data: response.data.map(toEventJson), has_more: response.has_more };
}
