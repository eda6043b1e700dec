/** Webhook endpoints: create (events, only_source), secret shown once, rotate, deliveries and their attempts, resend. */
import { useState } from 'preact/hooks';
import { v1, type List } from '../../api/client';
import { Badge, ConfirmButton, ErrorMessage, Field, Form, Notice, PageHeader, Section, SecretOnce, Show, Table, When, useAction, useLoad } from '../../components/ui';

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  only_source: string | null;
  description: string | null;
  enabled: boolean;
  created_at: string;
  secret?: string;
}
interface Delivery {
  id: string;
  event_id: string;
  event_type: string;
  status: string;
  attempts: Array<{ number: number; at: string; status_code: number | null; latency_ms: number; error: string | null; manual: boolean }>;
  next_attempt_at: string | null;
  created_at: string;
}

export function WebhooksPage() {
  const endpoints = useLoad(() => v1<List<Endpoint>>('GET', '/webhook-endpoints', { query: { limit: 100 } }));
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState('payment.succeeded, payment.failed');
  const [onlySource, setOnlySource] = useState('');
  const [secret, setSecret] = useState<{ label: string; value: string } | undefined>();
  const [open, setOpen] = useState<string | undefined>();
  const create = useAction(async () => {
    const list = events.split(/[\s,]+/).filter(Boolean);
    const created = await v1<Endpoint>('POST', '/webhook-endpoints', { body: { url, events: list, ...(onlySource.trim() ? { only_source: onlySource.trim() } : {}) } });
    setSecret({ label: `Segredo de assinatura de ${created.url}`, value: created.secret ?? '' });
    setUrl('');
    endpoints.reload();
  });
  const rotate = useAction(async (endpoint: Endpoint) => {
    const rotated = await v1<Endpoint>('POST', `/webhook-endpoints/${endpoint.id}/rotate-secret`);
    setSecret({ label: `Novo segredo de ${endpoint.url}`, value: rotated.secret ?? '' });
    endpoints.reload();
  });

  return (
    <>
      <PageHeader title="Webhooks" description="Endereços que recebem os eventos da sua conta, assinados no cabeçalho Service-Signature." />
      <Section title="Novo endpoint">
        {secret ? <SecretOnce label={secret.label} secret={secret.value} onDone={() => setSecret(undefined)} /> : null}
        <Form label="Novo endpoint de webhook" onSubmit={() => void create.run()} error={create.error} busy={create.busy} submitLabel="Criar endpoint">
          <div class="grid">
            <Field label="URL" type="url" required placeholder="https://minha-loja.com.br/webhooks" value={url} onValue={setUrl} />
            <Field label="Eventos" hint="Tipos separados por vírgula, por exemplo payment.succeeded ou payment.*" required value={events} onValue={setEvents} />
            <Field label="Somente da chave (only_source)" hint="Opcional: key:<id da chave> para receber só os pagamentos criados por ela." placeholder="key:key_…" value={onlySource} onValue={setOnlySource} />
          </div>
        </Form>
      </Section>
      <Section title="Endpoints">
        <ErrorMessage error={rotate.error} />
        <Show loaded={endpoints}>
          {(list) => (
            <Table
              caption="Endpoints de webhook"
              rows={list.data}
              rowKey={(endpoint) => endpoint.id}
              columns={[
                { header: 'URL', cell: (endpoint) => <span class="mono break">{endpoint.url}</span> },
                { header: 'Eventos', cell: (endpoint) => endpoint.events.join(', ') },
                { header: 'Somente da chave', cell: (endpoint) => endpoint.only_source ?? '—' },
                { header: 'Situação', cell: (endpoint) => <Badge status={endpoint.enabled ? 'active' : 'inactive'} /> },
                { header: 'Criado em', cell: (endpoint) => <When at={endpoint.created_at} /> },
                {
                  header: 'Ações',
                  cell: (endpoint) => (
                    <div class="actions">
                      <button type="button" class="button button-small" aria-expanded={open === endpoint.id} onClick={() => setOpen(open === endpoint.id ? undefined : endpoint.id)}>
                        Entregas
                      </button>
                      <ConfirmButton
                        label="Trocar segredo"
                        title="Trocar o segredo de assinatura?"
                        message={<p>Um novo segredo é criado agora; o anterior continua valendo por um tempo para você atualizar seu servidor.</p>}
                        confirmLabel="Trocar segredo"
                        danger={false}
                        onConfirm={() => rotate.run(endpoint)}
                      />
                    </div>
                  ),
                },
              ]}
            />
          )}
        </Show>
      </Section>
      {open ? <Deliveries endpointId={open} /> : null}
    </>
  );
}

function Deliveries({ endpointId }: { endpointId: string }) {
  const deliveries = useLoad(() => v1<List<Delivery>>('GET', `/webhook-endpoints/${endpointId}/deliveries`, { query: { limit: 50 } }), [endpointId]);
  const [resent, setResent] = useState<string | undefined>();
  const resend = useAction(async (id: string) => {
    await v1('POST', `/webhook-deliveries/${id}/resend`);
    setResent(id);
    deliveries.reload();
  });
  return (
    <Section title={`Entregas de ${endpointId}`}>
      {resent ? <Notice tone="ok">Entrega {resent} reenviada.</Notice> : null}
      <ErrorMessage error={resend.error} />
      <Show loaded={deliveries}>
        {(list) => (
          <Table
            caption="Entregas do endpoint"
            rows={list.data}
            rowKey={(delivery) => delivery.id}
            columns={[
              { header: 'Evento', cell: (delivery) => <span class="mono">{delivery.event_type}</span> },
              { header: 'Situação', cell: (delivery) => <Badge status={delivery.status} /> },
              {
                header: 'Tentativas',
                cell: (delivery) => (
                  <ol class="attempts">
                    {delivery.attempts.map((attempt) => (
                      <li key={attempt.number}>
                        <When at={attempt.at} /> — {attempt.status_code ?? 'sem resposta'} ({attempt.latency_ms} ms){attempt.error ? ` — ${attempt.error}` : ''}
                        {attempt.manual ? ' (reenvio manual)' : ''}
                      </li>
                    ))}
                  </ol>
                ),
              },
              { header: 'Próxima tentativa', cell: (delivery) => <When at={delivery.next_attempt_at} /> },
              {
                header: 'Ações',
                cell: (delivery) => (
                  <button type="button" class="button button-small" onClick={() => void resend.run(delivery.id)} disabled={resend.busy}>
                    Reenviar
                  </button>
                ),
              },
            ]}
          />
        )}
      </Show>
    </Section>
  );
}
