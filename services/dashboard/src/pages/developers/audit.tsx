/** The audit log of owner actions (who did what, when), paged with starting_after. */
import { useState } from 'preact/hooks';
import { api, type List } from '../../api/client';
import { MoreButton, PageHeader, Section, Show, Table, When, useLoad } from '../../components/ui';
import { auditActionLabel } from '../../lib/labels';

interface AuditEntry {
  id: string;
  actor: string;
  action: string;
  target: string;
  mode: string | null;
  created_at: string;
  ip: string | null;
}

export function AuditPage() {
  const [pages, setPages] = useState<string[]>(['']);
  const last = pages.at(-1) ?? '';
  const [rows, setRows] = useState<AuditEntry[]>([]);
  const loaded = useLoad(async () => {
    const page = await api<List<AuditEntry>>('GET', '/audit', { query: { limit: 50, starting_after: last } });
    setRows((previous) => (last ? [...previous, ...page.data] : page.data));
    return page;
  }, [last]);
  return (
    <>
      <PageHeader title="Registro de auditoria" description="Quem criou ou revogou o quê, e quando, nas ações dos donos da conta." />
      <Section title="Ações">
        <Show loaded={loaded}>
          {(page) => (
            <>
              <Table
                caption="Registro de auditoria"
                rows={rows}
                rowKey={(entry) => entry.id}
                columns={[
                  { header: 'Quando', cell: (entry) => <When at={entry.created_at} /> },
                  { header: 'Quem', cell: (entry) => entry.actor },
                  { header: 'Ação', cell: (entry) => <span title={entry.action}>{auditActionLabel(entry.action)}</span> },
                  { header: 'Alvo', cell: (entry) => <span class="mono break">{entry.target}</span> },
                  { header: 'Modo', cell: (entry) => (entry.mode === 'live' ? 'Produção' : entry.mode === 'test' ? 'Teste' : '—') },
                  { header: 'IP', cell: (entry) => entry.ip ?? '—' },
                ]}
              />
              <MoreButton hasMore={page.has_more} onMore={() => setPages([...pages, rows.at(-1)?.id ?? ''])} busy={loaded.loading} />
            </>
          )}
        </Show>
      </Section>
    </>
  );
}
