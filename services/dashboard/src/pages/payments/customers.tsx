/** Customers: found by document or e-mail (the API's filters), paged. */
import { useState } from 'preact/hooks';
import { Field, MoreButton, PageHeader, Section, Show, Table, When, usePagedList } from '../../components/ui';

interface Customer {
  id: string;
  name: string;
  email: string | null;
  document: string;
  phone: string | null;
  created_at: string;
}

export function CustomersPage() {
  const [document, setDocument] = useState('');
  const [email, setEmail] = useState('');
  const [filters, setFilters] = useState({ document: '', email: '' });
  const { loaded, rows, more } = usePagedList<Customer>('/customers', filters);
  return (
    <>
      <PageHeader title="Clientes" description="Compradores guardados pelos pagamentos e assinaturas (um por CPF/CNPJ)." />
      <Section title="Busca">
        <form
          class="filters"
          role="search"
          aria-label="Buscar clientes"
          onSubmit={(event) => {
            event.preventDefault();
            setFilters({ document, email });
          }}
        >
          <Field label="CPF ou CNPJ" value={document} onValue={setDocument} />
          <Field label="E-mail" type="email" value={email} onValue={setEmail} />
          <div class="form-actions">
            <button type="submit" class="button button-primary">
              Buscar
            </button>
          </div>
        </form>
      </Section>
      <Section title="Lista">
        <Show loaded={loaded}>
          {(page) => (
            <>
              <Table
                caption="Clientes"
                rows={rows}
                rowKey={(customer) => customer.id}
                columns={[
                  { header: 'Nome', cell: (customer) => customer.name },
                  { header: 'Documento', cell: (customer) => <span class="mono">{customer.document}</span> },
                  { header: 'E-mail', cell: (customer) => customer.email ?? '—' },
                  { header: 'Telefone', cell: (customer) => customer.phone ?? '—' },
                  { header: 'Desde', cell: (customer) => <When at={customer.created_at} /> },
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
