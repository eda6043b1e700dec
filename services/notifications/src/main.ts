import './telemetry';
import { notifications } from '@orquestra/contracts';
import { ensureIndexes, runService } from '@orquestra/platform';
import { config } from './config';
import { registerEventModel } from './db/event.model';
import { startEventLogConsumer } from './events/event-log.consumer';
import { notificationsHandlers } from './grpc/notifications.handlers';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ db, grpc, bus, logger }) => {
    const events = registerEventModel(db);
    await ensureIndexes(db);
    await startEventLogConsumer(bus, events, logger);
    grpc.addService(
      notifications.NotificationsServiceService,
      notificationsHandlers(events),
      'orquestra.notifications.v1.NotificationsService',
    );
  },
});
