import { Transport, type ClientOptions } from './http/transport';
import { AnalyticsResource } from './resources/analytics.resource';
import { CardsConfigResource, CardsResource } from './resources/cards.resource';
import { CustomersResource } from './resources/customers.resource';
import { DisputesResource } from './resources/disputes.resource';
import { EventsResource } from './resources/events.resource';
import { IntegrationKindsResource, IntegrationsResource } from './resources/integrations.resource';
import { PaymentsResource } from './resources/payments.resource';
import { BalancesResource, PayoutDestinationsResource, PayoutsResource } from './resources/payouts.resource';
import { ProviderAccountsResource, ProvidersResource } from './resources/providers.resource';
import { ReconciliationRunsResource } from './resources/reconciliation-runs.resource';
import { RequestLogsResource } from './resources/request-logs.resource';
import { RoutingResource, RoutingRulesResource } from './resources/routing.resource';
import { SubaccountsResource } from './resources/subaccounts.resource';
import { SubscriptionsResource } from './resources/subscriptions.resource';
import { WebhookDeliveriesResource, WebhookEndpointsResource } from './resources/webhook-endpoints.resource';
import { webhooks } from './webhooks/signature';

/**
 * The Orquestra API client.
 *
 * @example
 * const orquestra = new Orquestra({ apiKey: process.env.ORQUESTRA_KEY!, baseUrl: 'https://api.orquestra.com.br' });
 * const payment = await orquestra.payments.create({ method: 'pix', amount: 1990, customer: { name: 'Maria' } });
 * console.log(payment.next_action?.qr_code, payment.lastResponse.requestId);
 *
 * Every method takes RequestOptions last ({ timeout, signal, idempotencyKey, apiKey, maxRetries }).
 */
export class Orquestra {
  /** Webhook signature helpers (constructEvent, verifySignature, generateTestHeader), also without a client. */
  static readonly webhooks = webhooks;
  /** The same helpers on an instance: `orquestra.webhooks.constructEvent(rawBody, header, secret)`. */
  readonly webhooks = webhooks;
  readonly payments: PaymentsResource;
  readonly subscriptions: SubscriptionsResource;
  readonly payouts: PayoutsResource;
  readonly balances: BalancesResource;
  readonly payoutDestinations: PayoutDestinationsResource;
  readonly subaccounts: SubaccountsResource;
  readonly events: EventsResource;
  readonly providers: ProvidersResource;
  readonly providerAccounts: ProviderAccountsResource;
  readonly routingRules: RoutingRulesResource;
  readonly routing: RoutingResource;
  readonly disputes: DisputesResource;
  readonly customers: CustomersResource;
  readonly cards: CardsResource;
  readonly cardsConfig: CardsConfigResource;
  readonly webhookEndpoints: WebhookEndpointsResource;
  readonly webhookDeliveries: WebhookDeliveriesResource;
  readonly integrationKinds: IntegrationKindsResource;
  readonly integrations: IntegrationsResource;
  readonly reconciliationRuns: ReconciliationRunsResource;
  readonly analytics: AnalyticsResource;
  readonly requestLogs: RequestLogsResource;
  /** Lower-level access for routes this SDK does not wrap yet. */
  readonly transport: Transport;

  constructor(options: ClientOptions) {
    this.transport = new Transport(options);
    this.payments = new PaymentsResource(this.transport);
    this.subscriptions = new SubscriptionsResource(this.transport);
    this.payouts = new PayoutsResource(this.transport);
    this.balances = new BalancesResource(this.transport);
    this.payoutDestinations = new PayoutDestinationsResource(this.transport);
    this.subaccounts = new SubaccountsResource(this.transport);
    this.events = new EventsResource(this.transport);
    this.providers = new ProvidersResource(this.transport);
    this.providerAccounts = new ProviderAccountsResource(this.transport);
    this.routingRules = new RoutingRulesResource(this.transport);
    this.routing = new RoutingResource(this.transport);
    this.disputes = new DisputesResource(this.transport);
    this.customers = new CustomersResource(this.transport);
    this.cards = new CardsResource(this.transport);
    this.cardsConfig = new CardsConfigResource(this.transport);
    this.webhookEndpoints = new WebhookEndpointsResource(this.transport);
    this.webhookDeliveries = new WebhookDeliveriesResource(this.transport);
    this.integrationKinds = new IntegrationKindsResource(this.transport);
    this.integrations = new IntegrationsResource(this.transport);
    this.reconciliationRuns = new ReconciliationRunsResource(this.transport);
    this.analytics = new AnalyticsResource(this.transport);
    this.requestLogs = new RequestLogsResource(this.transport);
  }
}
