import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { grpcTarget, replicaPorts, singleReplicas, type Replicas, type ReplicatedService } from './replicas';

export const REPO_ROOT = path.resolve(__dirname, '../../..');

/** Ports of one stack. `offset` lets the e2e stack run beside a developer's stack. */
export function stackPorts(offset = 0) {
  return {
    gateway: 8080 + offset,
    accounts: 50051 + offset,
    payments: 50052 + offset,
    routing: 50053 + offset,
    providers: 50054 + offset,
    notifications: 50055 + offset,
    subscriptions: 50056 + offset,
    payouts: 50057 + offset,
    vault: 50058 + offset,
    tracking: 50059 + offset,
    // Prometheus `/metrics` of the gRPC services (the gateway serves its own on its HTTP port).
    gatewayMetrics: 9560 + offset,
    accountsMetrics: 9561 + offset,
    paymentsMetrics: 9562 + offset,
    routingMetrics: 9563 + offset,
    providersMetrics: 9564 + offset,
    notificationsMetrics: 9565 + offset,
    subscriptionsMetrics: 9566 + offset,
    payoutsMetrics: 9567 + offset,
    vaultMetrics: 9568 + offset,
    trackingMetrics: 9569 + offset,
    efiApi: 9443 + offset,
    efiControl: 9444 + offset,
    mercadopagoApi: 9450 + offset,
    mercadopagoControl: 9451 + offset,
    asaasApi: 9452 + offset,
    asaasControl: 9453 + offset,
    pagarmeApi: 9454 + offset,
    pagarmeControl: 9455 + offset,
    wooviApi: 9456 + offset,
    wooviControl: 9457 + offset,
    stripeApi: 9458 + offset,
    stripeControl: 9459 + offset,
    // The ad tools' emulators (tracking sends sales there, never to the real tools).
    utmifyApi: 9470 + offset,
    utmifyControl: 9471 + offset,
    metaApi: 9472 + offset,
    metaControl: 9473 + offset,
    tiktokApi: 9474 + offset,
    tiktokControl: 9475 + offset,
    // The demo merchant site of the card fields (tools/stack/src/demo-merchant.ts), an origin of its own.
    demoMerchant: 8090 + offset,
  };
}

export type StackPorts = ReturnType<typeof stackPorts>;

/**
 * The credentials-encryption key of a local stack: generated once and kept under .local (git-ignored)
 * so that restarting the stack can still read the provider credentials it stored.
 */
export function localEncryptionKeys(stateDir: string): string {
  const file = path.join(stateDir, 'credentials-keys');
  if (!existsSync(file)) {
    mkdirSync(stateDir, { recursive: true });
    writeFileSync(file, `local1:${randomBytes(32).toString('base64')}`, { mode: 0o600 });
  }
  return readFileSync(file, 'utf8').trim();
}

/** Base URLs of the local provider emulators, for the providers service's PROVIDER_ENDPOINTS. */
export function providerEndpoints(ports: StackPorts): Record<string, { test: string; live: string; control: string }> {
  const http = (api: number, control: number) => ({ test: `http://127.0.0.1:${api}`, live: `http://127.0.0.1:${api}`, control: `http://127.0.0.1:${control}` });
  return {
    efi: { test: `https://localhost:${ports.efiApi}`, live: `https://localhost:${ports.efiApi}`, control: `http://127.0.0.1:${ports.efiControl}` },
    mercadopago: http(ports.mercadopagoApi, ports.mercadopagoControl),
    // Asaas's API lives under /v3 (https://api.asaas.com/v3).
    asaas: { ...http(ports.asaasApi, ports.asaasControl), test: `http://127.0.0.1:${ports.asaasApi}/v3`, live: `http://127.0.0.1:${ports.asaasApi}/v3` },
    // Pagar.me's API lives under /core/v5 (https://api.pagar.me/core/v5).
    pagarme: { ...http(ports.pagarmeApi, ports.pagarmeControl), test: `http://127.0.0.1:${ports.pagarmeApi}/core/v5`, live: `http://127.0.0.1:${ports.pagarmeApi}/core/v5` },
    woovi: http(ports.wooviApi, ports.wooviControl),
    stripe: http(ports.stripeApi, ports.stripeControl),
  };
}

/** Environment of every service process of one stack. */
export function serviceEnvironment(options: {
  ports: StackPorts;
  mongoUrl: string;
  amqpUrl: string;
  dbPrefix: string;
  encryptionKeys: string;
  certDir: string;
  logLevel: string;
  /** Extra variables per service (e.g. shorter timeouts for the failover tests). */
  overrides?: Record<string, Record<string, string>>;
  /** Replicas per service (replicas.ts): clients get every replica's address. Default: one each. */
  replicas?: Replicas;
}): Record<string, Record<string, string>> {
  const { ports } = options;
  const replicas = options.replicas ?? singleReplicas();
  const publicBase = `http://localhost:${ports.gateway}`;
  const common = {
    NODE_ENV: 'development',
    LOG_LEVEL: options.logLevel,
    MONGO_URL: options.mongoUrl,
    AMQP_URL: options.amqpUrl,
    DB_PREFIX: options.dbPrefix,
    EVENTS_EXCHANGE: `${options.dbPrefix}events`,
  };
  // The address clients of a gRPC service dial: every replica's (replicas.ts).
  const addr = (service: Exclude<ReplicatedService, 'gateway'>) => {
    const base = { main: ports[service], metrics: ports[`${service}Metrics`] };
    return grpcTarget(Array.from({ length: replicas[service] }, (_, i) => replicaPorts(base, i, false).main));
  };
  const env: Record<string, Record<string, string>> = {
    accounts: {
      ...common,
      GRPC_ADDRESS: `127.0.0.1:${ports.accounts}`,
      METRICS_PORT: String(ports.accountsMetrics),
      // A local stack seals the owners' TOTP secrets with its one local key; production gives accounts its own.
      OWNER_SECRETS_KEYS: options.encryptionKeys,
    },
    providers: {
      ...common,
      GRPC_ADDRESS: `127.0.0.1:${ports.providers}`, METRICS_PORT: String(ports.providersMetrics),
      CREDENTIALS_ENCRYPTION_KEYS: options.encryptionKeys,
      PUBLIC_WEBHOOK_BASE_URL: publicBase,
      // Test- and (in the e2e stack) live-mode accounts talk to the local emulators.
      PROVIDER_ENDPOINTS: JSON.stringify(providerEndpoints(ports)),
      PROVIDER_EXTRA_CA_FILE: path.join(options.certDir, 'ca.pem'),
      // Efí infrações are polled every few minutes in production; fast here so tests see them.
      DISPUTE_POLL_INTERVAL_MS: '1000',
      VAULT_GRPC_ADDR: addr('vault'),
    },
    routing: { ...common, GRPC_ADDRESS: `127.0.0.1:${ports.routing}`, METRICS_PORT: String(ports.routingMetrics), PROVIDERS_GRPC_ADDR: addr('providers') },
    notifications: {
      ...common,
      GRPC_ADDRESS: `127.0.0.1:${ports.notifications}`,
      METRICS_PORT: String(ports.notificationsMetrics),
      // A local stack seals webhook secrets with its one local key; production gives each its own.
      WEBHOOK_SECRETS_ENCRYPTION_KEYS: options.encryptionKeys,
    },
    subscriptions: {
      ...common,
      GRPC_ADDRESS: `127.0.0.1:${ports.subscriptions}`,
      METRICS_PORT: String(ports.subscriptionsMetrics),
      PROVIDERS_GRPC_ADDR: addr('providers'),
      PAYMENTS_GRPC_ADDR: addr('payments'),
    },
    payouts: {
      ...common,
      GRPC_ADDRESS: `127.0.0.1:${ports.payouts}`,
      METRICS_PORT: String(ports.payoutsMetrics),
      PROVIDERS_GRPC_ADDR: addr('providers'),
      ACCOUNTS_GRPC_ADDR: addr('accounts'),
    },
    vault: {
      ...common,
      GRPC_ADDRESS: `127.0.0.1:${ports.vault}`,
      METRICS_PORT: String(ports.vaultMetrics),
      // A local stack seals card data with its one local key; production gives the vault its own
      // (docs/cards.md). The fingerprint key is derived from it: stable across restarts, never the
      // key itself.
      CARD_ENCRYPTION_KEYS: options.encryptionKeys,
      FINGERPRINT_KEY: createHmac('sha256', options.encryptionKeys).update('orquestra vault fingerprint key').digest('base64'),
      // The payment page's origin always shows the card fields (docs/cards.md "Payment page").
      PAY_BASE_URL: `${publicBase}/pay`,
    },
    tracking: {
      ...common,
      GRPC_ADDRESS: `127.0.0.1:${ports.tracking}`,
      METRICS_PORT: String(ports.trackingMetrics),
      // A local stack seals the ad tools' tokens with its one local key; production gives tracking its own.
      INTEGRATION_CREDENTIALS_KEYS: options.encryptionKeys,
      UTMIFY_BASE_URL: `http://127.0.0.1:${ports.utmifyApi}`,
      META_GRAPH_BASE_URL: `http://127.0.0.1:${ports.metaApi}`,
      TIKTOK_BASE_URL: `http://127.0.0.1:${ports.tiktokApi}`,
    },
    payments: {
      ...common,
      GRPC_ADDRESS: `127.0.0.1:${ports.payments}`, METRICS_PORT: String(ports.paymentsMetrics),
      ROUTING_GRPC_ADDR: addr('routing'),
      PROVIDERS_GRPC_ADDR: addr('providers'),
      PAYOUTS_GRPC_ADDR: addr('payouts'),
      PUBLIC_BASE_URL: publicBase,
      PAY_BASE_URL: `${publicBase}/pay`,
    },
    gateway: {
      ...common,
      HTTP_PORT: String(ports.gateway),
      METRICS_PORT: String(ports.gatewayMetrics),
      ACCOUNTS_GRPC_ADDR: addr('accounts'),
      PAYMENTS_GRPC_ADDR: addr('payments'),
      ROUTING_GRPC_ADDR: addr('routing'),
      PROVIDERS_GRPC_ADDR: addr('providers'),
      NOTIFICATIONS_GRPC_ADDR: addr('notifications'),
      SUBSCRIPTIONS_GRPC_ADDR: addr('subscriptions'),
      PAYOUTS_GRPC_ADDR: addr('payouts'),
      VAULT_GRPC_ADDR: addr('vault'),
      TRACKING_GRPC_ADDR: addr('tracking'),
      // Its own address: the OpenAPI server, the card fields' script and the origin of their iframe.
      PUBLIC_BASE_URL: publicBase,
      // The OAuth server's cookie key, the same for every gateway replica (derived from the local key, stable across restarts).
      OAUTH_COOKIE_KEYS: createHmac('sha256', options.encryptionKeys).update('orquestra oauth cookie key').digest('base64'),
      // The payment page is served by the gateway at the path of the payments' PAY_BASE_URL.
      PAY_BASE_URL: `${publicBase}/pay`,
    },
  };
  for (const [service, extra] of Object.entries(options.overrides ?? {})) env[service] = { ...env[service], ...extra };
  return env;
}
