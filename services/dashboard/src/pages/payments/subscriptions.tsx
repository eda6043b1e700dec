/** Subscriptions (Pix Automático): list by status, with cycle payments of the one opened. */
import { useState } from 'preact/hooks';
import { v1, type List } from '../../api/client';
import { Badge, Link, Money, MoreButton, PageHeader, Section, Select, Show, Table, When, useLoad } from '../../components/ui';
import { formatDay } from '../../lib/format';
import type { Payment } from './payment.types';

interface Subscription {
  id: string;
  status: string;
  amount: number | null;
  first_amount: number;
  frequency: string;
  start_date: string;
  next_charge_date: string | null;
  description: string;
  provider: string;
  customer: { id: string; name: string; document: string };
  created_at: string;
  payments?: Payment[];
}

const FREQUENCY: Record<string, string> = { weekly: 'Semanal', monthly: 'Mensal', quarterly: 'Trimestral', semiannually: 'Semestral', annually: 'Anual' };

export function SubscriptionsPage() {
  const [status, setStatus] = useState('');
  const [after, setAfter] = useState('');
  const [rows, setRows] = useState<Subscription[]>([]);
  const [open, setOpen] = useState<string | undefined>();
  const loaded = useLoad(async () => {
    const page = await v1<List<Subscription>>('GET', '/subscriptions', { query: { status, limit: 25, starting_after: after } });
    setRows((previous) => (after ? [...previous, ...page.data] : page.data));
    return page;
  }, [status, after]);
  return (
    <>
      <PageHeader title="Assinaturas" description="Pix Automático: a autorização do pagador e os ciclos cobrados." />
      <Section title="Lista">
        <div class="filters">
          <Select
            label="Situação"
            value={status}
            onValue={(value) => {
              setAfter('');
              setStatus(value);
            }}
            options={[['', 'Todas'], ['pending', 'Pendentes'], ['active', 'Ativas'], ['canceled', 'Canceladas'], ['refused', 'Recusadas'], ['expired', 'Expiradas']]}
          />
        </div>
        <Show loaded={loaded}>
          {(page) => (
            <>
              <Table
                caption="Assinaturas"
                rows={rows}
                rowKey={(subscription) => subscription.id}
                columns={[
                  { header: 'Assinatura', cell: (subscription) => <span class="mono">{subscription.id}</span> },
                  { header: 'Cliente', cell: (subscription) => subscription.customer.name },
                  { header: 'Valor', cell: (subscription) => (subscription.amount === null ? 'Variável' : <Money cents={subscription.amount} />), class: 'num' },
                  { header: 'Frequência', cell: (subscription) => FREQUENCY[subscription.frequency] ?? subscription.frequency },
                  { header: 'Situação', cell: (subscription) => <Badge status={subscription.status} /> },
                  { header: 'Próxima cobrança', cell: (subscription) => formatDay(subscription.next_charge_date) },
                  {
                    header: 'Ciclos',
                    cell: (subscription) => (
                      <button type="button" class="button button-small" aria-expanded={open === subscription.id} onClick={() => setOpen(open === subscription.id ? undefined : subscription.id)}>
                        Ver ciclos
                      </button>
                    ),
                  },
                ]}
              />
              <MoreButton hasMore={page.has_more} onMore={() => setAfter(rows.at(-1)?.id ?? '')} busy={loaded.loading} />
            </>
          )}
        </Show>
      </Section>
      {open ? <Cycles id={open} /> : null}
    </>
  );
}

function Cycles({ id }: { id: string }) {
  const subscription = useLoad(() => v1<Subscription>('GET', `/subscriptions/${id}`), [id]);
  return (
    <Section title={`Ciclos de ${id}`}>
      <Show loaded={subscription}>
        {(data) => (
          <Table
            caption="Ciclos da assinatura"
            rows={data.payments ?? []}
            rowKey={(payment) => payment.id}
            columns={[
              { header: 'Pagamento', cell: (payment) => <Link href={`/pagamentos/${payment.id}`}>{payment.id}</Link> },
              { header: 'Valor', cell: (payment) => <Money cents={payment.amount} />, class: 'num' },
              { header: 'Situação', cell: (payment) => <Badge status={payment.status} /> },
              { header: 'Criado em', cell: (payment) => <When at={payment.created_at} /> },
            ]}
          />
        )}
      </Show>
    </Section>
  );
}
