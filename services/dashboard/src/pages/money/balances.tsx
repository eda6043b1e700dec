/** Balances of each active provider account in this mode, read from the providers now. */
import { v1, type List } from '../../api/client';
import { Link, Money, Notice, PageHeader, Section, Show, Table, When, useLoad } from '../../components/ui';

interface Balance {
  provider_account_id: string;
  provider: string;
  name: string;
  available: number | null;
  pending: number | null;
  as_of: string | null;
  payouts_supported: boolean;
  error: string | null;
}

export function BalancesPage() {
  const balances = useLoad(() => v1<List<Balance> & { payouts_api_enabled: boolean }>('GET', '/balances'));
  return (
    <>
      <PageHeader title="Saldos" description="O saldo de cada conta conectada, lido do provedor agora." />
      <Section title="Contas">
        <Show loaded={balances}>
          {(list) => (
            <>
              <Notice tone={list.payouts_api_enabled ? 'ok' : 'info'}>
                Repasses pela API estão {list.payouts_api_enabled ? 'ativados' : 'desativados'} neste modo. <Link href="/repasses">Configurar repasses</Link>
              </Notice>
              <Table
                caption="Saldos por conta"
                rows={list.data}
                rowKey={(balance) => balance.provider_account_id}
                columns={[
                  { header: 'Conta', cell: (balance) => balance.name },
                  { header: 'Provedor', cell: (balance) => balance.provider },
                  { header: 'Disponível', cell: (balance) => <Money cents={balance.available} />, class: 'num' },
                  { header: 'A receber', cell: (balance) => <Money cents={balance.pending} />, class: 'num' },
                  { header: 'Repasse pela API', cell: (balance) => (balance.payouts_supported ? 'Sim' : 'Não') },
                  { header: 'Lido em', cell: (balance) => (balance.error ? <span class="text-bad">{balance.error}</span> : <When at={balance.as_of} />) },
                ]}
              />
            </>
          )}
        </Show>
      </Section>
    </>
  );
}
