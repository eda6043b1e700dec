/** Provider accounts: connect one from the catalog's credential fields (GET /v1/providers), enable/disable, priority. */
import { useState } from 'preact/hooks';
import { v1, type List } from '../../api/client';
import { Badge, ErrorMessage, Field, Form, Notice, PageHeader, Section, Select, Show, Table, TextArea, useAction, useLoad } from '../../components/ui';

interface Provider {
  code: string;
  name: string;
  credential_fields: Array<{ name: string; label: string; secret: boolean }>;
  capabilities: { methods: string[] };
  notes: string | null;
}
export interface ProviderAccount {
  id: string;
  provider: string;
  name: string;
  priority: number;
  enabled: boolean;
  methods: string[];
  credentials_last4: Record<string, string>;
  breaker_state: string;
  webhook_url: string | null;
  webhook_manual_setup: boolean;
}

export function ProviderAccountsPage() {
  const catalog = useLoad(() => v1<List<Provider>>('GET', '/providers'));
  const accounts = useLoad(() => v1<List<ProviderAccount>>('GET', '/provider-accounts'));
  const update = useAction(async (id: string, change: { enabled?: boolean; priority?: number }) => {
    if (change.enabled !== undefined) await v1('POST', `/provider-accounts/${id}/${change.enabled ? 'enable' : 'disable'}`);
    if (change.priority !== undefined) await v1('POST', `/provider-accounts/${id}`, { body: { priority: change.priority } });
    accounts.reload();
  });
  return (
    <>
      <PageHeader title="Contas de provedores" description="As contas de pagamento conectadas neste modo; o roteamento escolhe entre elas." />
      <Section title="Contas conectadas">
        <ErrorMessage error={update.error} />
        <Show loaded={accounts}>
          {(list) => (
            <Table
              caption="Contas de provedores"
              rows={list.data}
              rowKey={(account) => account.id}
              columns={[
                { header: 'Nome', cell: (account) => <>{account.name}<br /><small class="mono muted">{account.id}</small></> },
                { header: 'Provedor', cell: (account) => account.provider },
                { header: 'Métodos', cell: (account) => account.methods.join(', ') },
                { header: 'Situação', cell: (account) => <Badge status={account.enabled ? 'active' : 'inactive'} /> },
                { header: 'Disjuntor', cell: (account) => (account.breaker_state === 'closed' ? 'Normal' : account.breaker_state === 'open' ? 'Aberto (falhando)' : 'Testando') },
                { header: 'Prioridade', cell: (account) => <Priority account={account} onSave={(priority) => void update.run(account.id, { priority })} /> },
                {
                  header: 'Ações',
                  cell: (account) => (
                    <button type="button" class="button button-small" onClick={() => void update.run(account.id, { enabled: !account.enabled })} disabled={update.busy}>
                      {account.enabled ? 'Desativar' : 'Ativar'}
                    </button>
                  ),
                },
              ]}
            />
          )}
        </Show>
      </Section>
      <Show loaded={catalog}>{(list) => <Connect providers={list.data} onConnected={accounts.reload} />}</Show>
    </>
  );
}

function Priority({ account, onSave }: { account: ProviderAccount; onSave: (priority: number) => void }) {
  const [value, setValue] = useState(String(account.priority));
  return (
    <form
      class="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        onSave(Number(value));
      }}
    >
      <label class="visually-hidden" for={`prio-${account.id}`}>
        Prioridade de {account.name}
      </label>
      <input id={`prio-${account.id}`} type="number" min={0} value={value} onInput={(event) => setValue((event.currentTarget as HTMLInputElement).value)} />
      <button type="submit" class="button button-small">
        Salvar
      </button>
    </form>
  );
}

function Connect({ providers, onConnected }: { providers: Provider[]; onConnected: () => void }) {
  const [code, setCode] = useState(providers[0]?.code ?? '');
  const [name, setName] = useState('');
  const [priority, setPriority] = useState('10');
  const [credentials, setCredentials] = useState<Record<string, string>>({});
  const [connected, setConnected] = useState<ProviderAccount | undefined>();
  const provider = providers.find((candidate) => candidate.code === code);
  const connect = useAction(async () => {
    const account = await v1<ProviderAccount>('POST', '/provider-accounts', { body: { provider: code, credentials, ...(name ? { name } : {}), priority: Number(priority) } });
    setConnected(account);
    setCredentials({});
    setName('');
    onConnected();
  });
  return (
    <Section title="Conectar conta">
      {connected ? (
        <Notice tone="ok">
          Conta {connected.name} conectada.{' '}
          {connected.webhook_manual_setup && connected.webhook_url ? `Cadastre este webhook no painel do provedor: ${connected.webhook_url}` : 'O webhook foi registrado no provedor.'}
        </Notice>
      ) : null}
      <Form label="Conectar conta de provedor" onSubmit={() => void connect.run()} error={connect.error} busy={connect.busy} submitLabel="Conectar">
        <div class="grid">
          <Select label="Provedor" value={code} onValue={(value) => { setCode(value); setCredentials({}); }} options={providers.map((candidate): [string, string] => [candidate.code, candidate.name])} hint={provider ? `Métodos: ${provider.capabilities.methods.join(', ')}` : undefined} />
          <Field label="Nome da conta" placeholder="Efí principal" value={name} onValue={setName} />
          <Field label="Prioridade" type="number" min={0} hint="Menor número é tentado primeiro." value={priority} onValue={setPriority} />
          {provider?.credential_fields.map((field) =>
            /pem|cert/i.test(`${field.name} ${field.label}`) ? (
              // Certificates are multi-line PEM text.
              <TextArea key={`${code}-${field.name}`} label={field.label} required value={credentials[field.name] ?? ''} onValue={(value) => setCredentials({ ...credentials, [field.name]: value })} />
            ) : (
              <Field key={`${code}-${field.name}`} label={field.label} type={field.secret ? 'password' : 'text'} autoComplete="off" required value={credentials[field.name] ?? ''} onValue={(value) => setCredentials({ ...credentials, [field.name]: value })} />
            ),
          )}
        </div>
        {provider?.notes ? <p class="muted">{provider.notes}</p> : null}
      </Form>
    </Section>
  );
}
