/** API keys: create (full or restricted, test or live; the secret shown once), list, revoke. */
import { useState } from 'preact/hooks';
import { api, type List } from '../../api/client';
import { Badge, ConfirmButton, ErrorMessage, Field, Form, PageHeader, Section, Select, SecretOnce, Show, Table, When, useAction, useLoad } from '../../components/ui';
import { currentMode } from '../../lib/mode';

interface ApiKey {
  id: string;
  name: string;
  mode: 'test' | 'live';
  restricted: boolean;
  last4: string;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export function ApiKeysPage() {
  const keys = useLoad(() => api<List<ApiKey>>('GET', '/keys', { query: { mode: currentMode() } }));
  const [name, setName] = useState('');
  const [kind, setKind] = useState('restricted');
  const [mode, setMode] = useState<string>(currentMode());
  const [created, setCreated] = useState<{ key: ApiKey; secret: string } | undefined>();
  const create = useAction(async () => {
    const answer = await api<{ key: ApiKey; secret: string }>('POST', '/keys', { body: { name, mode, restricted: kind === 'restricted' } });
    setCreated(answer);
    setName('');
    keys.reload();
  });
  const revoke = useAction(async (id: string) => {
    await api('DELETE', `/keys/${encodeURIComponent(id)}`);
    keys.reload();
  });

  return (
    <>
      <PageHeader title="Chaves de API" description="Chaves completas servem ao seu servidor; chaves restritas só criam pagamentos e leem os que criaram (para bots de venda)." />
      <Section title="Nova chave">
        {created ? <SecretOnce label={`Chave "${created.key.name}" (${created.key.restricted ? 'restrita' : 'completa'}, ${created.key.mode === 'live' ? 'produção' : 'teste'})`} secret={created.secret} onDone={() => setCreated(undefined)} /> : null}
        <Form label="Nova chave de API" onSubmit={() => void create.run()} error={create.error} busy={create.busy} submitLabel="Criar chave">
          <div class="grid">
            <Field label="Nome" required placeholder="Bot do WhatsApp" value={name} onValue={setName} />
            <Select label="Tipo" value={kind} onValue={setKind} options={[['restricted', 'Restrita (só cria pagamentos)'], ['full', 'Completa']]} />
            <Select label="Modo" value={mode} onValue={setMode} options={[['test', 'Teste'], ['live', 'Produção']]} />
          </div>
        </Form>
      </Section>
      <Section title="Chaves">
        <ErrorMessage error={revoke.error} />
        <Show loaded={keys}>
          {(list) => (
            <Table
              caption="Chaves de API"
              rows={list.data}
              rowKey={(key) => key.id}
              columns={[
                { header: 'Nome', cell: (key) => key.name },
                { header: 'Tipo', cell: (key) => (key.restricted ? 'Restrita' : 'Completa') },
                { header: 'Modo', cell: (key) => (key.mode === 'live' ? 'Produção' : 'Teste') },
                { header: 'Final', cell: (key) => <span class="mono">…{key.last4}</span> },
                { header: 'Criada por', cell: (key) => key.created_by },
                { header: 'Criada em', cell: (key) => <When at={key.created_at} /> },
                { header: 'Último uso', cell: (key) => (key.last_used_at ? <When at={key.last_used_at} /> : 'Nunca') },
                { header: 'Situação', cell: (key) => (key.revoked_at ? <Badge status="canceled" /> : <Badge status="active" />) },
                {
                  header: 'Ações',
                  cell: (key) =>
                    key.revoked_at ? (
                      <span class="muted">
                        Revogada em <When at={key.revoked_at} />
                      </span>
                    ) : (
                      <ConfirmButton
                        label={`Revogar`}
                        title={`Revogar a chave "${key.name}"?`}
                        message={<p>A chave terminada em {key.last4} deixa de funcionar imediatamente em todas as rotas. Isso não pode ser desfeito.</p>}
                        confirmLabel="Revogar chave"
                        onConfirm={() => revoke.run(key.id)}
                      />
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
