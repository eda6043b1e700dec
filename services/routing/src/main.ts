import './telemetry';
import { providers, routing } from '@orquestra/contracts';
import { createRpcClient, ensureIndexes, runService } from '@orquestra/platform';
import { config } from './config';
import { registerHealthBucketModel } from './db/health-bucket.model';
import { registerRoutingRuleModel, registerRuleOrderModel } from './db/routing-rule.model';
import { AccountHealth } from './domain/account-health';
import { subscribedLookups } from './domain/routing-lookups';
import { RulesService } from './domain/rules.service';
import { startAttemptOutcomeConsumer } from './events/attempt-outcome.consumer';
import { routingHandlers } from './grpc/routing.handlers';

void runService({
  config,
  grpcAddress: config.GRPC_ADDRESS,
  setup: async ({ db, grpc, bus, logger, onShutdown }) => {
    const ruleModel = registerRoutingRuleModel(db);
    const ruleOrders = registerRuleOrderModel(db);
    const healthBuckets = registerHealthBucketModel(db);
    await ensureIndexes(db);
    const providersClient = createRpcClient(providers.ProvidersServiceService, config.PROVIDERS_GRPC_ADDR, {
      deadlineMs: config.GRPC_DEADLINE_MS,
    });
    onShutdown(() => providersClient.close());
    const health = new AccountHealth(healthBuckets, logger);
    health.start();
    onShutdown(() => health.stop());
    await startAttemptOutcomeConsumer(bus, health, logger);
    const rules = new RulesService(ruleModel, ruleOrders, providersClient);
    // Accounts and rules cached per merchant, dropped on every replica by the writers' signals.
    const lookups = await subscribedLookups({ bus, providersClient, rules, ttlMs: config.LOOKUP_CACHE_TTL_MS });
    grpc.addService(routing.RoutingServiceService, routingHandlers({ rules, lookups, health, healthMinAttempts: config.HEALTH_MIN_ATTEMPTS }), 'orquestra.routing.v1.RoutingService');
  },
});
