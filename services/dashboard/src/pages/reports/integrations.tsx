/** Ad tool integrations (Utmify, Meta, TikTok): connect, enable/disable, deliveries with the tool's answer. */
import { useState } from 'preact/hooks';
import { v1, type List } from '../../api/client';
import { Badge, ErrorMessage, Field, Form, Notice, PageHeader, Section, Select, Show, Table, When, useAction, useLoad } from '../../components/ui';

interface Kind {
  id: string;
  name: string;
  description: string;
  credentials: Array<{ name: string; label: string; required: boolean; description: string | null }>;
  options: Array<{ name: string; label: string; required: boolean; description: string | null }>;
}
interface Integration {
  id: string;
  kind: string;
  name: string | null;
  enabled: boolean;
  sales: string;
  credentials_last4: Record<string, string>;
  created_at: string;
}
interface Delivery {
  id: string;
  payment_id: string;
  event: string;
  test: boolean;
  status: string;
  reason_text: string | null;
  attempts: number;
  response: { status: number | null; body: string | null };
  created_at: string;
}

const SALES: Array<[string, string]> = [['both', 'Reais e de teste'], ['live', 'Só reais'], ['test', 'Só de teste']];

export function IntegrationsPage() {
  const kinds = useLoad(() => v1<List<Kind>>('GET', '/integration-kinds'));
  const integrations = useLoad(() => v1<List<Integration>>('GET', '/integrations'));
  const [open, setOpen] = useState<string | undefined>();
  const toggle = useAction(async (integration: Integration) => {
    await v1('PATCH', `/integrations/${integration.id}`, { body: { enabled: !integration.enabled } });
    integrations.reload();
  });
  return (
    <>
      <PageHeader title="Integrações" description="Envio das vendas às ferramentas de atribuição e conversão de anúncios." />
      <Section title="Integrações">
        <ErrorMessage error={toggle.error} />
        <Show loaded={integrations}>
          {(list) => (
            <Table
              caption="Integrações"
              rows={list.data}
              rowKey={(integration) => integration.id}
              columns={[
                { header: 'Ferramenta', cell: (integration) => integration.name ?? integration.kind },
                { header: 'Tipo', cell: (integration) => integration.kind },
                { header: 'Vendas', cell: (integration) => SALES.find(([value]) => value === integration.sales)?.[1] ?? integration.sales },
                { header: 'Credenciais', cell: (integration) => Object.entries(integration.credentials_last4).map(([key, last4]) => `${key} …${last4}`).join(', ') },
                { header: 'Situação', cell: (integration) => <Badge status={integration.enabled ? 'active' : 'inactive'} /> },
                {
                  header: 'Ações',
                  cell: (integration) => (
                    <div class="actions">
                      <button type="button" class="button button-small" aria-expanded={open === integration.id} onClick={() => setOpen(open === integration.id ? undefined : integration.id)}>
                        Envios
                      </button>
                      <button type="button" class="button button-small" onClick={() => void toggle.run(integration)}>
                        {integration.enabled ? 'Desativar' : 'Ativar'}
                      </button>
                    </div>
                  ),
                },
              ]}
            />
          )}
        </Show>
      </Section>
      {open ? <Deliveries id={open} /> : null}
      <Show loaded={kinds}>{(list) => <Connect kinds={list.data} onCreated={integrations.reload} />}</Show>
    </>
  );
}

function Deliveries({ id }: { id: string }) {
  const deliveries = useLoad(() => v1<List<Delivery>>('GET', `/integrations/${id}/deliveries`, { query: { limit: 50 } }), [id]);
  const [tested, setTested] = useState(false);
  const test = useAction(async () => {
    await v1('POST', `/integrations/${id}/test`);
    setTested(true);
    deliveries.reload();
  });
  return (
    <Section title={`Envios de ${id}`}>
      {tested ? <Notice tone="ok">A última venda aprovada foi enviada como teste.</Notice> : null}
      <ErrorMessage error={test.error} />
      <button type="button" class="button" onClick={() => void test.run()} disabled={test.busy}>
        Enviar venda de teste
      </button>
      <Show loaded={deliveries}>
        {(list) => (
          <Table
            caption="Envios da integração"
            rows={list.data}
            rowKey={(delivery) => delivery.id}
            columns={[
              { header: 'Pagamento', cell: (delivery) => <span class="mono">{delivery.payment_id}</span> },
              { header: 'Envio', cell: (delivery) => `${delivery.event}${delivery.test ? ' (teste)' : ''}` },
              { header: 'Situação', cell: (delivery) => <Badge status={delivery.status} /> },
              { header: 'Resposta', cell: (delivery) => (delivery.response.status ? `${delivery.response.status} ${delivery.response.body?.slice(0, 80) ?? ''}` : (delivery.reason_text ?? '—')) },
              { header: 'Tentativas', cell: (delivery) => delivery.attempts, class: 'num' },
              { header: 'Quando', cell: (delivery) => <When at={delivery.created_at} /> },
            ]}
          />
        )}
      </Show>
    </Section>
  );
}

function Connect({ kinds, onCreated }: { kinds: Kind[]; onCreated: () => void }) {
  const [kindId, setKindId] = useState(kinds[0]?.id ?? '');
  const [sales, setSales] = useState('both');
  const [values, setValues] = useState<Record<string, string>>({});
  const kind = kinds.find((candidate) => candidate.id === kindId);
  const create = useAction(async () => {
    const pick = (fields: Kind['credentials']) => Object.fromEntries(fields.filter((field) => values[field.name]).map((field) => [field.name, values[field.name] ?? '']));
    await v1('POST', '/integrations', { body: { kind: kindId, sales, credentials: pick(kind?.credentials ?? []), options: pick(kind?.options ?? []) } });
    setValues({});
    onCreated();
  });
  return (
    <Section title="Nova integração">
      <Form label="Nova integração" onSubmit={() => void create.run()} error={create.error} busy={create.busy} submitLabel="Conectar">
        {kind?.description ? <p class="muted">{kind.description}</p> : null}
        <div class="grid">
          <Select label="Ferramenta" value={kindId} onValue={(value) => { setKindId(value); setValues({}); }} options={kinds.map((candidate): [string, string] => [candidate.id, candidate.name])} />
          <Select label="Vendas enviadas" value={sales} onValue={setSales} options={SALES} />
          {[...(kind?.credentials ?? []), ...(kind?.options ?? [])].map((field) => (
            <Field key={`${kindId}-${field.name}`} label={field.label} required={field.required} hint={field.description ?? undefined} autoComplete="off" value={values[field.name] ?? ''} onValue={(value) => setValues({ ...values, [field.name]: value })} />
          ))}
        </div>
      </Form>
    </Section>
  );
}
