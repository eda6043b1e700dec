/** Subaccounts: list (status, search) and the onboarding link of providers with identity onboarding. */
import { useState } from 'preact/hooks';
import { v1, type List } from '../../api/client';
import { Badge, ErrorMessage, Field, PageHeader, Section, Select, Show, Table, When, useAction, useLoad } from '../../components/ui';

interface Subaccount {
  id: string;
  status: string;
  status_detail: string | null;
  provider: string;
  type: string;
  name: string;
  document: string;
  created_at: string;
}
interface OnboardingLink {
  url: string;
  expires_at: string;
  qr_code_base64: string | null;
}

export function SubaccountsPage() {
  const [status, setStatus] = useState('');
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const subaccounts = useLoad(() => v1<List<Subaccount>>('GET', '/subaccounts', { query: { status, q: search, limit: 100 } }), [status, search]);
  const [link, setLink] = useState<{ id: string; link: OnboardingLink } | undefined>();
  const onboarding = useAction(async (id: string) => {
    const answer = await v1<OnboardingLink>('POST', `/subaccounts/${id}/onboarding-link`);
    setLink({ id, link: answer });
  });
  return (
    <>
      <PageHeader title="Subcontas" description="Quem recebe parte dos pagamentos (split) e pode sacar o seu saldo." />
      <Section title="Lista">
        <form
          class="filters"
          role="search"
          aria-label="Filtrar subcontas"
          onSubmit={(event) => {
            event.preventDefault();
            setSearch(q);
          }}
        >
          <Field label="Buscar" type="search" placeholder="nome, documento, e-mail" value={q} onValue={setQ} />
          <Select label="Situação" value={status} onValue={setStatus} options={[['', 'Todas'], ['pending', 'Pendentes'], ['active', 'Ativas'], ['refused', 'Recusadas'], ['blocked', 'Bloqueadas'], ['inactive', 'Inativas']]} />
          <div class="form-actions">
            <button type="submit" class="button button-primary">
              Filtrar
            </button>
          </div>
        </form>
        <ErrorMessage error={onboarding.error} />
        {link ? (
          <div class="alert alert-ok" role="status">
            <p>
              Link de cadastro de {link.id} (válido até <When at={link.link.expires_at} />):{' '}
              <a href={link.link.url} target="_blank" rel="noopener noreferrer" class="break">
                {link.link.url}
              </a>
            </p>
            {link.link.qr_code_base64 ? <img class="qr" alt="QR code do link de cadastro" src={`data:image/png;base64,${link.link.qr_code_base64}`} /> : null}
          </div>
        ) : null}
        <Show loaded={subaccounts}>
          {(list) => (
            <Table
              caption="Subcontas"
              rows={list.data}
              rowKey={(subaccount) => subaccount.id}
              columns={[
                { header: 'Nome', cell: (subaccount) => subaccount.name },
                { header: 'Documento', cell: (subaccount) => <span class="mono">{subaccount.document}</span> },
                { header: 'Provedor', cell: (subaccount) => subaccount.provider },
                { header: 'Situação', cell: (subaccount) => <><Badge status={subaccount.status} />{subaccount.status_detail ? <small class="muted"> {subaccount.status_detail}</small> : null}</> },
                { header: 'Criada em', cell: (subaccount) => <When at={subaccount.created_at} /> },
                {
                  header: 'Ações',
                  cell: (subaccount) => (
                    <button type="button" class="button button-small" onClick={() => void onboarding.run(subaccount.id)} disabled={onboarding.busy}>
                      Link de cadastro
                    </button>
                  ),
                },
              ]}
            />
          )}
        </Show>
      </Section>
    </>
  );
}
