import { modeFromName, modeName, notifications, PUBLIC_EVENT_TYPES } from '@orquestra/contracts';
import { AppError, type Handlers } from '@orquestra/platform';
import type { FilterQuery } from 'mongoose';
import type { EventDoc, EventModel } from '../db/event.model';
import { isValidEventPattern } from '../domain/event-type-pattern';

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
      // Restricted keys see only the events of what they created (their own payments).
      if (caller.restricted) filter.source = caller.key_id;
      if (request.type && !isValidEventPattern(request.type)) {
        throw new AppError('parameter_invalid', {
          param: 'type',
          message: 'Tipo de evento desconhecido. Use um tipo do catálogo (por exemplo payment.succeeded), um prefixo como payment.* ou *.',
        });
      }
      if (request.type === '*') {
        // every type
      } else if (request.type.endsWith('.*')) {
        const prefix = request.type.slice(0, -1);
        filter.type = { $in: PUBLIC_EVENT_TYPES.filter((type) => type.startsWith(prefix)) };
      } else if (request.type) {
        filter.type = request.type;
      }
      if (request.resource_id) filter.resource_id = request.resource_id;
      if (request.payment_id) filter.payment_id = request.payment_id;
      if (request.created_gte || request.created_lte) {
        filter.created = {
          ...(request.created_gte ? { $gte: request.created_gte } : {}),
          ...(request.created_lte ? { $lte: request.created_lte } : {}),
        };
      }
      // Event ids sort by creation time (ULID), so "newest first" and cursors are plain _id order.
      if (request.starting_after) filter._id = { $lt: request.starting_after };
      const docs = await events.find(filter).sort({ _id: -1 }).limit(limit + 1).lean<EventDoc[]>();
      return { data: docs.slice(0, limit).map(toProto), has_more: docs.length > limit };
    },

    async getEvent(request) {
      const caller = request.caller;
      if (!caller) throw new AppError('unauthenticated');
      const doc = await events
        .findOne({
          _id: request.event_id,
          merchant_id: caller.merchant_id,
          mode: modeName(caller.mode),
          ...(caller.restricted ? { source: caller.key_id } : {}),
        })
        .lean<EventDoc>();
      if (!doc) throw new AppError('not_found', { param: 'id' });
      return { event: toProto(doc) };
    },
  };
}
