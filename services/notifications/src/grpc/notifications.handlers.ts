import { modeFromName, modeName, notifications } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import type { FilterQuery } from 'mongoose';
import type { EventDoc, EventModel } from '../db/event.model';

const MAX_LIMIT = 100;

function toProto(doc: EventDoc): notifications.Event {
  return {
    id: doc._id,
    type: doc.type,
    created: doc.created,
    data_object_json: JSON.stringify(doc.data.object),
    resource_id: doc.resource_id,
    source: doc.source ?? '',
    mode: modeFromName(doc.mode),
  };
}

export function notificationsHandlers(events: EventModel): Handlers<typeof notifications.NotificationsServiceService> {
  return {
    async listEvents(request) {
      const caller = request.caller;
      if (!caller) throw new AppError('unauthenticated');
      const limit = Math.min(Math.max(request.limit || 10, 1), MAX_LIMIT);
      const filter: FilterQuery<EventDoc> = { merchant_id: caller.merchant_id, mode: modeName(caller.mode) };
      if (request.type) filter.type = request.type;
      if (request.resource_id) filter.resource_id = request.resource_id;
      // Event ids sort by creation time (ULID), so "newest first" and cursors are plain _id order.
      if (request.starting_after) filter._id = { $lt: request.starting_after };
      const docs = await events.find(filter).sort({ _id: -1 }).limit(limit + 1).lean<EventDoc[]>();
      return { data: docs.slice(0, limit).map(toProto), has_more: docs.length > limit };
    },

    async getEvent(request) {
      const caller = request.caller;
      if (!caller) throw new AppError('unauthenticated');
      const doc = await events
        .findOne({ _id: request.event_id, merchant_id: caller.merchant_id, mode: modeName(caller.mode) })
        .lean<EventDoc>();
      if (!doc) throw new AppError('not_found', { param: 'id' });
      return { event: toProto(doc) };
    },
  };
}
