/** Sign-in: e-mail and password; a second step asks for the TOTP code when the API says so. */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../api/client';
import { Field, Form, Link, useAction } from '../components/ui';

export function SignInPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needsTotp, setNeedsTotp] = useState(false);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = 'Entrar — Orquestra';
  }, []);
  const action = useAction(async () => {
    try {
      await api('POST', '/session', { body: { email, password, ...(needsTotp ? { totp_code: totp.replace(/\s/g, '') } : {}) }, anonymous: true });
      onSignedIn();
    } catch (error) {
      if ((error as { code?: string }).code === 'totp_required' && !needsTotp) {
        setNeedsTotp(true);
        return;
      }
      throw error;
    }
  });
  return (
    <main id="conteudo" class="auth-page">
      <div class="auth-card">
        <p class="brand brand-large">Orquestra</p>
        <h1 ref={heading}>Entrar no painel</h1>
        <Form label="Entrar" onSubmit={() => void action.run()} error={action.error} busy={action.busy} submitLabel={needsTotp ? 'Confirmar código' : 'Entrar'}>
          <Field label="E-mail" type="email" autoComplete="username" required value={email} onValue={setEmail} />
          <Field label="Senha" type="password" autoComplete="current-password" required value={password} onValue={setPassword} />
          {needsTotp ? (
            <Field
              label="Código de verificação"
              hint="Os 6 dígitos do seu aplicativo autenticador."
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9 ]{6,7}"
              required
              autoFocus
              value={totp}
              onValue={setTotp}
            />
          ) : null}
        </Form>
        <p class="auth-switch">
          Ainda não tem conta? <Link href="/cadastro">Criar conta</Link>
        </p>
      </div>
    </main>
  );
}
