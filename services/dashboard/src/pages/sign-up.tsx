/** Sign-up of a merchant with its owner (POST /dashboard/api/signup), signed in at once. */
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client';
import { Field, Form, Link, useAction } from '../components/ui';

export function SignUpPage({ onSignedIn }: { onSignedIn: () => void }) {
  const [merchantName, setMerchantName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  useEffect(() => {
    document.title = 'Criar conta — Orquestra';
  }, []);
  const action = useAction(async () => {
    await api('POST', '/signup', { body: { merchant_name: merchantName, email, password }, anonymous: true });
    onSignedIn();
  });
  return (
    <main id="conteudo" class="auth-page">
      <div class="auth-card">
        <p class="brand brand-large">Orquestra</p>
        <h1>Criar conta</h1>
        <Form label="Criar conta" onSubmit={() => void action.run()} error={action.error} busy={action.busy} submitLabel="Criar conta">
          <Field label="Nome da empresa" autoComplete="organization" required value={merchantName} onValue={setMerchantName} />
          <Field label="E-mail" type="email" autoComplete="username" required value={email} onValue={setEmail} />
          <Field label="Senha" type="password" autoComplete="new-password" required minLength={10} hint="Pelo menos 10 caracteres." value={password} onValue={setPassword} />
        </Form>
        <p class="auth-switch">
          Já tem conta? <Link href="/entrar">Entrar</Link>
        </p>
      </div>
    </main>
  );
}
