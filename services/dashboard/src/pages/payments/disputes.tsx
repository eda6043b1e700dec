/** Disputes (MED for Pix, chargebacks for cards): list by status, evidence submission. */
import { useState } from 'preact/hooks';
import { v1, type List } from '../../api/client';
import { Badge, Field, Form, Link, Money, Notice, PageHeader, Section, Select, Show, Table, TextArea, When, useAction, useLoad } from '../../components/ui';

interface Dispute {
  id: string;
  kind: 'med' | 'chargeback';
  status: string;
  amount: number;
  reason: string | null;
  due_at: string;
  payment_id: string;
  provider: string;
  evidence?: { text: string; urls: string[]; submitted_at: string } | null;
  created_at: string;
}

export function DisputesPage() {
  const [status, setStatus] = useState('');
  const disputes = useLoad(() => v1<List<Dispute>>('GET', '/disputes', { query: { status, limit: 100 } }), [status]);
  const [selected, setSelected] = useState<Dispute | undefined>();
  return (
    <>
      <PageHeader title="Disputas" description="MED do Pix e chargebacks de cartão: responda com provas antes do prazo." />
      <Section title="Lista">
        <div class="filters">
          <Select label="Situação" value={status} onValue={setStatus} options={[['', 'Todas'], ['open', 'Aguardando resposta'], ['under_review', 'Em análise'], ['won', 'Ganhas'], ['lost', 'Perdidas'], ['canceled', 'Canceladas']]} />
        </div>
        <Show loaded={disputes}>
          {(list) => (
            <Table
              caption="Disputas"
              rows={list.data}
              rowKey={(dispute) => dispute.id}
              columns={[
                {
                  header: 'Disputa',
                  cell: (dispute) => (
                    <>
                      {dispute.kind === 'med' ? 'MED (Pix)' : 'Chargeback'}
                      <br />
                      <small class="mono muted">{dispute.id}</small>
                    </>
                  ),
                },
                { header: 'Valor', cell: (dispute) => <Money cents={dispute.amount} />, class: 'num' },
                { header: 'Situação', cell: (dispute) => <Badge status={dispute.status} /> },
                { header: 'Motivo', cell: (dispute) => dispute.reason ?? '—' },
                { header: 'Prazo', cell: (dispute) => <When at={dispute.due_at} /> },
                { header: 'Pagamento', cell: (dispute) => <Link href={`/pagamentos/${dispute.payment_id}`} class="break">{dispute.payment_id}</Link> },
                {
                  header: 'Ações',
                  cell: (dispute) =>
                    dispute.status === 'open' ? (
                      <button type="button" class="button button-small" onClick={() => setSelected(dispute)}>
                        Enviar provas
                      </button>
                    ) : dispute.evidence ? (
                      <span class="muted">
                        Provas enviadas em <When at={dispute.evidence.submitted_at} />
                      </span>
                    ) : (
                      '—'
                    ),
                },
              ]}
            />
          )}
        </Show>
      </Section>
      {selected ? (
        <Evidence
          dispute={selected}
          onDone={() => {
            setSelected(undefined);
            disputes.reload();
          }}
        />
      ) : null}
    </>
  );
}

function Evidence({ dispute, onDone }: { dispute: Dispute; onDone: () => void }) {
  const [text, setText] = useState('');
  const [urls, setUrls] = useState('');
  const [sent, setSent] = useState(false);
  const submit = useAction(async () => {
    await v1('POST', `/disputes/${dispute.id}/evidence`, { body: { text, urls: urls.split(/\s+/).filter(Boolean) } });
    setSent(true);
    onDone();
  });
  return (
    <Section title={`Provas da disputa ${dispute.id}`}>
      {sent ? <Notice tone="ok">Provas enviadas.</Notice> : null}
      <Form label="Enviar provas" onSubmit={() => void submit.run()} error={submit.error} busy={submit.busy} submitLabel="Enviar provas">
        <TextArea label="Explicação" required hint="Conte o que aconteceu: entrega, contato com o comprador, política aceita…" value={text} onValue={setText} />
        <Field label="Links de comprovantes" hint="Links públicos, separados por espaço." value={urls} onValue={setUrls} />
      </Form>
    </Section>
  );
}
