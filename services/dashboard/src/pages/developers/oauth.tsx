/**
 * OAuth apps (engineer C's routes): the owner's registered apps (client secret shown once) and the
 * apps this merchant authorized (revocable). A 404 means the server has no OAuth yet: said plainly.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { api, type ApiError, type List } from '../../api/client';
import { ConfirmButton, ErrorMessage, Field, Form, Notice, PageHeader, Section, SecretOnce, Show, Table, When, useAction, useLoad, type Loaded } from '../../components/ui';

interface OAuthApp {
  id: string;
  name: string;
  client_id: string;
  redirect_uris: string[];
  logo_url?: string | null;
  created_at?: string;
  client_secret?: string;
}
interface Authorization {
  id: string;
  app_name?: string;
  app?: { name?: string };
  mode: string;
  access: string;
  created_at: string;
}

const unavailable = (error: ApiError | undefined): boolean => error?.status === 404;

const NOT_AVAILABLE = 'Os apps OAuth ainda não estão disponíveis neste servidor. Quando forem ativados, eles aparecem aqui.';

function Unavailable<T>({ loaded, children }: { loaded: Loaded<T>; children: (data: T) => ComponentChildren }) {
  if (loaded.error?.status === 404) return <Notice tone="warn">{NOT_AVAILABLE}</Notice>;
  return <Show loaded={loaded}>{children}</Show>;
}

export function OAuthPage() {
  const apps = useLoad(() => api<List<OAuthApp>>('GET', '/oauth/apps'));
  const authorizations = useLoad(() => api<List<Authorization>>('GET', '/oauth/authorizations'));
  const [name, setName] = useState('');
  const [redirects, setRedirects] = useState('');
  const [logo, setLogo] = useState('');
  const [created, setCreated] = useState<OAuthApp | undefined>();
  const create = useAction(async () => {
    const app = await api<OAuthApp>('POST', '/oauth/apps', { body: { name, redirect_uris: redirects.split(/[\s,]+/).filter(Boolean), ...(logo ? { logo_url: logo } : {}) } });
    setCreated(app);
    setName('');
    setRedirects('');
    setLogo('');
    apps.reload();
  });
  const removeApp = useAction(async (id: string) => {
    await api('DELETE', `/oauth/apps/${encodeURIComponent(id)}`);
    apps.reload();
  });
  const revoke = useAction(async (id: string) => {
    await api('DELETE', `/oauth/authorizations/${encodeURIComponent(id)}`);
    authorizations.reload();
  });
  const header = <PageHeader title="Apps OAuth" description="Apps de terceiros que agem por vários lojistas: os que você registrou e os que esta conta autorizou." />;
  if (unavailable(apps.error) && unavailable(authorizations.error)) {
    return (
      <>
        {header}
        <Notice tone="warn">{NOT_AVAILABLE}</Notice>
      </>
    );
  }

  return (
    <>
      {header}
      <Section title="Registrar app">
        {unavailable(apps.error) ? (
          <Notice tone="warn">{NOT_AVAILABLE}</Notice>
        ) : (
          <>
            {created?.client_secret ? (
              <>
                <p>
                  Client ID: <span class="mono">{created.client_id}</span>
                </p>
                <SecretOnce label={`Client secret de "${created.name}"`} secret={created.client_secret} onDone={() => setCreated(undefined)} />
              </>
            ) : null}
            <Form label="Registrar app OAuth" onSubmit={() => void create.run()} error={create.error} busy={create.busy} submitLabel="Registrar app">
              <div class="grid">
                <Field label="Nome do app" required value={name} onValue={setName} />
                <Field label="URLs de redirecionamento" hint="Uma ou mais, separadas por espaço ou vírgula (https)." required value={redirects} onValue={setRedirects} />
                <Field label="URL do logotipo" type="url" hint="Opcional." value={logo} onValue={setLogo} />
              </div>
            </Form>
          </>
        )}
      </Section>
      <Section title="Meus apps">
        <ErrorMessage error={removeApp.error} />
        <Unavailable loaded={apps}>
          {(list) => (
            <Table
              caption="Apps OAuth registrados"
              rows={list.data}
              rowKey={(app) => app.id}
              columns={[
                { header: 'Nome', cell: (app) => app.name },
                { header: 'Client ID', cell: (app) => <span class="mono break">{app.client_id}</span> },
                { header: 'Redirecionamentos', cell: (app) => app.redirect_uris.join(', ') },
                { header: 'Criado em', cell: (app) => <When at={app.created_at} /> },
                {
                  header: 'Ações',
                  cell: (app) => <ConfirmButton label="Excluir" title={`Excluir o app "${app.name}"?`} message={<p>Os tokens emitidos para ele deixam de valer.</p>} confirmLabel="Excluir app" onConfirm={() => removeApp.run(app.id)} />,
                },
              ]}
            />
          )}
        </Unavailable>
      </Section>
      <Section title="Apps autorizados nesta conta">
        <ErrorMessage error={revoke.error} />
        <Unavailable loaded={authorizations}>
          {(list) => (
            <Table
              caption="Apps autorizados"
              rows={list.data}
              rowKey={(grant) => grant.id}
              columns={[
                { header: 'App', cell: (grant) => grant.app_name ?? grant.app?.name ?? grant.id },
                { header: 'Modo', cell: (grant) => (grant.mode === 'live' ? 'Produção' : 'Teste') },
                { header: 'Acesso', cell: (grant) => (grant.access === 'full' ? 'Completo' : 'Restrito') },
                { header: 'Autorizado em', cell: (grant) => <When at={grant.created_at} /> },
                {
                  header: 'Ações',
                  cell: (grant) => <ConfirmButton label="Revogar" title="Revogar a autorização?" message={<p>Os tokens do app para esta conta deixam de valer imediatamente.</p>} confirmLabel="Revogar" onConfirm={() => revoke.run(grant.id)} />,
                },
              ]}
            />
          )}
        </Unavailable>
      </Section>
    </>
  );
}
