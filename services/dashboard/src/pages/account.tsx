/** The owner's own security: TOTP second factor (set up, enable, disable) and signing out everywhere. */
import { useState } from 'preact/hooks';
import { api, type Me } from '../api/client';
import { ConfirmButton, ErrorMessage, Field, Form, Notice, PageHeader, Section, useAction } from '../components/ui';
import { navigate } from '../lib/router';

export function AccountPage({ me }: { me: Me }) {
  const [setup, setSetup] = useState<{ secret: string; otpauth_url: string } | undefined>();
  const [code, setCode] = useState('');
  const [enabled, setEnabled] = useState(me.owner.totp_enabled);
  const [message, setMessage] = useState<string | undefined>();
  const start = useAction(async () => setSetup(await api<{ secret: string; otpauth_url: string }>('POST', '/totp/setup')));
  const confirm = useAction(async () => {
    await api('POST', enabled ? '/totp/disable' : '/totp/enable', { body: { code: code.replace(/\s/g, '') } });
    setMessage(enabled ? 'Verificação em duas etapas desativada.' : 'Verificação em duas etapas ativada.');
    setEnabled(!enabled);
    setSetup(undefined);
    setCode('');
  });
  const everywhere = useAction(async () => {
    await api('POST', '/sessions/revoke-all');
    navigate('/entrar', { replace: true });
    location.reload();
  });
  return (
    <>
      <PageHeader title="Segurança da conta" description={`${me.owner.email} · ${me.merchant.name}`} />
      <Section title="Verificação em duas etapas">
        {message ? <Notice tone="ok">{message}</Notice> : null}
        <p>{enabled ? 'Ativada: a entrada pede o código do aplicativo autenticador.' : 'Desativada: a entrada pede só e-mail e senha.'}</p>
        {!enabled && !setup ? (
          <>
            <ErrorMessage error={start.error} />
            <button type="button" class="button" onClick={() => void start.run()} disabled={start.busy}>
              Configurar aplicativo autenticador
            </button>
          </>
        ) : null}
        {setup ? (
          <div class="secret">
            <p>Adicione esta chave no seu aplicativo autenticador (Google Authenticator, 1Password, Authy…):</p>
            <p class="mono break">{setup.secret}</p>
            <p class="muted break">{setup.otpauth_url}</p>
          </div>
        ) : null}
        {setup || enabled ? (
          <Form label={enabled ? 'Desativar verificação em duas etapas' : 'Ativar verificação em duas etapas'} onSubmit={() => void confirm.run()} error={confirm.error} busy={confirm.busy} submitLabel={enabled ? 'Desativar' : 'Ativar'}>
            <Field label="Código de 6 dígitos" inputMode="numeric" autoComplete="one-time-code" required value={code} onValue={setCode} />
          </Form>
        ) : null}
      </Section>
      <Section title="Sessões">
        <p>Encerra a sessão em todos os navegadores e dispositivos, inclusive neste.</p>
        <ErrorMessage error={everywhere.error} />
        <ConfirmButton label="Sair de todos os dispositivos" title="Sair de todos os dispositivos?" message={<p>Todos precisarão entrar de novo.</p>} confirmLabel="Sair de todos" onConfirm={() => everywhere.run()} />
      </Section>
    </>
  );
}
