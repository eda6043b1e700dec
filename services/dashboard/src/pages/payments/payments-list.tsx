/** Payments: the API's filters (status, method, provider) and search (q), paged with starting_after. */
import { useState } from 'preact/hooks';
import { Badge, Field, Link, Money, MoreButton, PageHeader, Section, Select, Show, Table, When, usePagedList } from '../../components/ui';
import { METHODS, PAYMENT_STATUSES, methodLabel, statusLabel } from '../../lib/labels';
import type { Payment } from './payment.types';

export function PaymentsPage() {
  const [status, setStatus] = useState('');
  const [method, setMethod] = useState('');
  const [provider, setProvider] = useState('');
  const [q, setQ] = useState('');
  const [filters, setFilters] = useState({ status: '', method: '', provider: '', q: '' });
  const { loaded, rows, more } = usePagedList<Payment>('/payments', filters);

  return (
    <>
      <PageHeader title="Pagamentos" description="Pix, boletos e cartões da sua conta, com filtros e busca." />
      <Section title="Filtros">
        <form
          class="filters"
          role="search"
          aria-label="Filtrar pagamentos"
          onSubmit={(event) => {
            event.preventDefault();
            setFilters({ status, method, provider, q });
          }}
        >
          <Field label="Buscar" type="search" placeholder="id, nome, e-mail, documento, metadados…" value={q} onValue={setQ} />
          <Select label="Situação" value={status} onValue={setStatus} options={[['', 'Todas'], ...PAYMENT_STATUSES.map((s): [string, string] => [s, statusLabel(s)])]} />
          <Select label="Método" value={method} onValue={setMethod} options={[['', 'Todos'], ...METHODS.map((m): [string, string] => [m, methodLabel(m)])]} />
          <Field label="Provedor" placeholder="efi, asaas…" value={provider} onValue={setProvider} />
          <div class="form-actions">
            <button type="submit" class="button button-primary">
              Filtrar
            </button>
          </div>
        </form>
      </Section>
      <Section title="Lista">
        <Show loaded={loaded}>
          {(page) => (
            <>
              <Table
                caption="Pagamentos"
                rows={rows}
                rowKey={(payment) => payment.id}
                columns={[
                  { header: 'Pagamento', cell: (payment) => <Link href={`/pagamentos/${payment.id}`}>{payment.id}</Link> },
                  { header: 'Valor', cell: (payment) => <Money cents={payment.amount} />, class: 'num' },
                  { header: 'Situação', cell: (payment) => <Badge status={payment.status} /> },
                  { header: 'Método', cell: (payment) => methodLabel(payment.method) },
                  { header: 'Provedor', cell: (payment) => payment.provider ?? '—' },
                  { header: 'Cliente', cell: (payment) => payment.customer?.name ?? '—' },
                  { header: 'Criado em', cell: (payment) => <When at={payment.created_at} /> },
                ]}
              />
              <MoreButton hasMore={page.has_more} onMore={more} busy={loaded.loading} />
            </>
          )}
        </Show>
      </Section>
    </>
  );
}
