/** One payment: summary, attempts, refunds, events and tracking; refund action (Idempotency-Key per click). */
import { useState } from 'preact/hooks';
import { Fragment } from 'preact';
import { ApiError, newIdempotencyKey, v1, type List } from '../../api/client';
import { Badge, Field, Form, Link, Money, Notice, PageHeader, Section, Show, Table, When, useAction, useLoad } from '../../components/ui';
import { formatBrl, parseBrlToCents } from '../../lib/format';
import { methodLabel } from '../../lib/labels';
import type { Payment } from './payment.types';

interface IntegrationDelivery {
  id: string;
  event: string;
  status: string;
  reason_text: string | null;
  created_at: string;
}

const REFUNDABLE = new Set(['succeeded', 'partially_refunded']);

export function PaymentDetailPage({ id }: { id: string }) {
  const payment = useLoad(() => v1<Payment>('GET', `/payments/${encodeURIComponent(id)}`), [id]);
  return (
    <>
      <PageHeader title={`Pagamento ${id}`} actions={<Link href="/pagamentos">Voltar aos pagamentos</Link>} />
      <Show loaded={payment}>{(data) => <PaymentDetail payment={data} reload={payment.reload} />}</Show>
    </>
  );
}

function PaymentDetail({ payment, reload }: { payment: Payment; reload: () => void }) {
  const remaining = payment.amount - payment.amount_refunded;
  return (
    <>
      <Section title="Resumo">
        <dl class="summary">
          <dt>Valor</dt>
          <dd>
            <Money cents={payment.amount} />
          </dd>
          <dt>Situação</dt>
          <dd>
            <Badge status={payment.status} />
          </dd>
          <dt>Método</dt>
          <dd>{methodLabel(payment.method)}</dd>
          <dt>Estornado</dt>
          <dd>
            <Money cents={payment.amount_refunded} />
          </dd>
          <dt>Tarifa / líquido</dt>
          <dd>
            <Money cents={payment.fee} /> / <Money cents={payment.net} />
          </dd>
          <dt>Provedor</dt>
          <dd>
            {payment.provider ?? '—'} <span class="muted mono">{payment.provider_account_id ?? ''}</span>
          </dd>
          <dt>Cliente</dt>
          <dd>{[payment.customer?.name, payment.customer?.email, payment.customer?.document].filter(Boolean).join(' · ') || '—'}</dd>
          <dt>Descrição</dt>
          <dd>{payment.description ?? '—'}</dd>
          <dt>Criado em</dt>
          <dd>
            <When at={payment.created_at} />
          </dd>
          {payment.failure_reason ? (
            <>
              <dt>Motivo da falha</dt>
              <dd>
                {payment.failure_reason} <span class="muted">({payment.failure_code})</span>
              </dd>
            </>
          ) : null}
          {payment.subscription_id ? (
            <>
              <dt>Assinatura</dt>
              <dd class="mono">{payment.subscription_id}</dd>
            </>
          ) : null}
        </dl>
        {Object.keys(payment.metadata ?? {}).length ? (
          <>
            <h3>Metadados</h3>
            <pre class="code">{JSON.stringify(payment.metadata, null, 2)}</pre>
          </>
        ) : null}
      </Section>
      {REFUNDABLE.has(payment.status) && remaining > 0 ? <RefundForm payment={payment} remaining={remaining} onDone={reload} /> : null}
      <Section title="Tentativas">
        <Table
          caption="Tentativas do pagamento"
          rows={payment.attempts ?? []}
          rowKey={(attempt) => attempt.id}
          columns={[
            { header: 'Quando', cell: (attempt) => <When at={attempt.created_at} /> },
            { header: 'Provedor', cell: (attempt) => `${attempt.provider ?? '—'} ${attempt.provider_account_id ?? ''}` },
            { header: 'Resultado', cell: (attempt) => <Badge status={attempt.outcome} /> },
            { header: 'Falha', cell: (attempt) => (attempt.failure_reason ? `${attempt.failure_reason} (${attempt.failure_code})` : '—') },
            { header: 'Latência', cell: (attempt) => `${attempt.latency_ms} ms`, class: 'num' },
          ]}
        />
      </Section>
      <Section title="Estornos">
        <Table
          caption="Estornos do pagamento"
          rows={payment.refunds ?? []}
          rowKey={(refund) => refund.id}
          columns={[
            { header: 'Estorno', cell: (refund) => <span class="mono">{refund.id}</span> },
            { header: 'Valor', cell: (refund) => <Money cents={refund.amount} />, class: 'num' },
            { header: 'Situação', cell: (refund) => <Badge status={refund.status} /> },
            { header: 'Origem', cell: (refund) => (refund.source === 'provider' ? 'Painel do provedor' : 'API / painel') },
            { header: 'Motivo', cell: (refund) => refund.reason ?? refund.failure_reason ?? '—' },
            { header: 'Quando', cell: (refund) => <When at={refund.created_at} /> },
          ]}
        />
      </Section>
      <Section title="Eventos">
        <Table
          caption="Eventos do pagamento"
          rows={payment.events ?? []}
          rowKey={(event) => event.id}
          columns={[
            { header: 'Tipo', cell: (event) => <span class="mono">{event.type}</span> },
            { header: 'Quando', cell: (event) => <When at={event.created} /> },
            { header: 'Evento', cell: (event) => <span class="mono muted">{event.id}</span> },
          ]}
        />
      </Section>
      <Tracking payment={payment} />
    </>
  );
}

function RefundForm({ payment, remaining, onDone }: { payment: Payment; remaining: number; onDone: () => void }) {
  const [amount, setAmount] = useState('');
  const [reason, setReason] = useState('');
  const [key, setKey] = useState(newIdempotencyKey());
  const [done, setDone] = useState<string | undefined>();
  const refund = useAction(async () => {
    const cents = amount.trim() ? parseBrlToCents(amount) : undefined;
    if (amount.trim() && cents === undefined) throw new ApiError(400, 'parameter_invalid', 'Valor inválido: use o formato 10,50.', 'amount');
    const answer = await v1<{ refund: { id: string; amount: number } }>('POST', `/payments/${payment.id}/refund`, { body: { ...(cents ? { amount: cents } : {}), ...(reason ? { reason } : {}) }, idempotencyKey: key });
    setDone(`Estorno ${answer.refund.id} de ${formatBrl(answer.refund.amount)} pedido.`);
    setKey(newIdempotencyKey());
    setAmount('');
    onDone();
  });
  return (
    <Section title="Estornar">
      {done ? <Notice tone="ok">{done}</Notice> : null}
      <Form label="Estornar pagamento" onSubmit={() => void refund.run()} error={refund.error} busy={refund.busy} submitLabel="Estornar">
        <div class="grid">
          <Field label="Valor (R$)" inputMode="decimal" placeholder={formatBrl(remaining).replace('R$ ', '')} hint={`Deixe vazio para estornar todo o restante (${formatBrl(remaining)}).`} value={amount} onValue={setAmount} />
          <Field label="Motivo" value={reason} onValue={setReason} />
        </div>
      </Form>
    </Section>
  );
}

/** The tracking values stored on the payment and what the ad tools were sent for it. */
function Tracking({ payment }: { payment: Payment }) {
  const deliveries = useLoad(async () => {
    const integrations = await v1<List<{ id: string; kind: string; name: string | null }>>('GET', '/integrations');
    const all = await Promise.all(
      integrations.data.map(async (integration) => {
        const list = await v1<List<IntegrationDelivery>>('GET', `/integrations/${integration.id}/deliveries`, { query: { payment_id: payment.id, limit: 20 } });
        return list.data.map((delivery) => ({ ...delivery, tool: integration.name ?? integration.kind }));
      }),
    );
    return all.flat();
  }, [payment.id]);
  const entries = Object.entries(payment.tracking ?? {});
  return (
    <Section title="Rastreamento">
      {entries.length ? (
        <dl class="summary">
          {entries.map(([key, value]) => (
            <Fragment key={key}>
              <dt class="mono">{key}</dt>
              <dd class="break">{value}</dd>
            </Fragment>
          ))}
        </dl>
      ) : (
        <p class="empty">Nenhum parâmetro de rastreamento (UTM ou clique) neste pagamento.</p>
      )}
      <h3>Envios às ferramentas de anúncios</h3>
      {deliveries.error?.code === 'restricted_key' ? null : (
        <Show loaded={deliveries}>
          {(rows) => (
            <Table
              caption="Envios do pagamento às integrações"
              rows={rows}
              rowKey={(row) => row.id}
              columns={[
                { header: 'Ferramenta', cell: (row) => row.tool },
                { header: 'Envio', cell: (row) => row.event },
                { header: 'Situação', cell: (row) => <Badge status={row.status} /> },
                { header: 'Motivo', cell: (row) => row.reason_text ?? '—' },
                { header: 'Quando', cell: (row) => <When at={row.created_at} /> },
              ]}
            />
          )}
        </Show>
      )}
    </Section>
  );
}
