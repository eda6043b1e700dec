/** Reconciliation runs: start one for a period, see each account's report. */
import { useState } from 'preact/hooks';
import { v1, type List } from '../../api/client';
import { Badge, Checkbox, Field, Form, PageHeader, Section, Show, Table, When, useAction, useLoad } from '../../components/ui';
import { formatDay, saoPauloDay } from '../../lib/format';

interface Run {
  id: string;
  status: string;
  start: string;
  end: string;
  fix: boolean;
  accounts: Array<{ provider_account_id: string; provider: string; status: string; listed: number; matched: number; missing_at_provider: number; unknown_to_orquestra: number; status_differences: number; amount_differences: number; fixed: number; error: string | null; notes: string[] }>;
  created_at: string;
  completed_at: string | null;
  failure_reason: string | null;
}

export function ReconciliationPage() {
  const runs = useLoad(() => v1<List<Run>>('GET', '/reconciliation-runs', { query: { limit: 20 } }));
  const [start, setStart] = useState(saoPauloDay(7));
  const [end, setEnd] = useState(saoPauloDay(1));
  const [fix, setFix] = useState(false);
  const create = useAction(async () => {
    await v1('POST', '/reconciliation-runs', { body: { start, end, fix } });
    runs.reload();
  });
  return (
    <>
      <PageHeader title="Conciliação" description="Compara os pagamentos da Orquestra com a lista de cobranças de cada conta no provedor." />
      <Section title="Nova conciliação">
        <Form label="Nova conciliação" onSubmit={() => void create.run()} error={create.error} busy={create.busy} submitLabel="Conciliar">
          <div class="grid">
            <Field label="De" type="date" required value={start} onValue={setStart} />
            <Field label="Até" type="date" required value={end} onValue={setEnd} />
          </div>
          <Checkbox label="Corrigir o que puder (situação segundo o provedor)" checked={fix} onChecked={setFix} />
        </Form>
      </Section>
      <Section title="Execuções">
        <Show loaded={runs}>
          {(list) => (
            <Table
              caption="Conciliações"
              rows={list.data}
              rowKey={(run) => run.id}
              columns={[
                { header: 'Execução', cell: (run) => <span class="mono">{run.id}</span> },
                { header: 'Período', cell: (run) => `${formatDay(run.start)} a ${formatDay(run.end)}` },
                { header: 'Situação', cell: (run) => <><Badge status={run.status} />{run.failure_reason ? <small class="muted"> {run.failure_reason}</small> : null}</> },
                {
                  header: 'Contas',
                  cell: (run) => (
                    <ul class="plain">
                      {run.accounts.map((account) => (
                        <li key={account.provider_account_id}>
                          {account.provider}: {account.matched}/{account.listed} conferidos, {account.missing_at_provider} ausentes no provedor, {account.unknown_to_orquestra} desconhecidos, {account.status_differences} com situação diferente
                          {account.error ? ` — ${account.error}` : ''}
                          {account.notes.length ? ` (${account.notes.join('; ')})` : ''}
                        </li>
                      ))}
                    </ul>
                  ),
                },
                { header: 'Criada em', cell: (run) => <When at={run.created_at} /> },
                { header: 'Relatório', cell: (run) => <a href={`/dashboard/api/v1/reconciliation-runs/${run.id}/findings.csv`} download>CSV</a> },
              ]}
            />
          )}
        </Show>
      </Section>
    </>
  );
}
