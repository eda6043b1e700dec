/** Which page answers which dashboard path. */
import type { ComponentChildren } from 'preact';
import type { Me } from '../api/client';
import { Link, PageHeader } from '../components/ui';
import { match } from '../lib/router';
import { AccountPage } from './account';
import { ApiKeysPage } from './developers/api-keys';
import { AuditPage } from './developers/audit';
import { OAuthPage } from './developers/oauth';
import { WebhooksPage } from './developers/webhooks';
import { BalancesPage } from './money/balances';
import { PayoutsPage } from './money/payouts';
import { SubaccountsPage } from './money/subaccounts';
import { CustomersPage } from './payments/customers';
import { DisputesPage } from './payments/disputes';
import { PaymentDetailPage } from './payments/payment-detail';
import { PaymentsPage } from './payments/payments-list';
import { SubscriptionsPage } from './payments/subscriptions';
import { ProviderAccountsPage } from './providers/provider-accounts';
import { RoutingPage } from './providers/routing';
import { AnalyticsPage } from './reports/analytics';
import { IntegrationsPage } from './reports/integrations';
import { ReconciliationPage } from './reports/reconciliation';

const PAGES: Record<string, (me: Me) => ComponentChildren> = {
  '/pagamentos': () => <PaymentsPage />,
  '/disputas': () => <DisputesPage />,
  '/assinaturas': () => <SubscriptionsPage />,
  '/clientes': () => <CustomersPage />,
  '/saldos': () => <BalancesPage />,
  '/repasses': () => <PayoutsPage />,
  '/subcontas': () => <SubaccountsPage />,
  '/provedores': () => <ProviderAccountsPage />,
  '/roteamento': () => <RoutingPage />,
  '/analises': () => <AnalyticsPage />,
  '/conciliacao': () => <ReconciliationPage />,
  '/integracoes': () => <IntegrationsPage />,
  '/desenvolvedores/chaves': () => <ApiKeysPage />,
  '/desenvolvedores/webhooks': () => <WebhooksPage />,
  '/desenvolvedores/oauth': () => <OAuthPage />,
  '/desenvolvedores/auditoria': () => <AuditPage />,
  '/conta': (me) => <AccountPage me={me} />,
};

export function pageFor(path: string, me: Me): ComponentChildren {
  const pathOnly = (path.split('?')[0] ?? path).replace(/\/+$/, '') || '/';
  const page = PAGES[pathOnly];
  if (page) return page(me);
  const payment = match('/pagamentos/:id', pathOnly);
  if (payment?.['id']) return <PaymentDetailPage id={payment['id']} />;
  return (
    <>
      <PageHeader title="Página não encontrada" />
      <p>
        Este endereço não existe no painel. <Link href="/pagamentos">Ir para os pagamentos</Link>
      </p>
    </>
  );
}
