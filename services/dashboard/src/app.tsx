/**
 * The dashboard shell: who is signed in (GET /dashboard/api/me), the header with the test/live
 * switch, the sidebar navigation and the page of the current address. Signed out, only the
 * sign-in and sign-up pages are reachable.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, refreshMe, setSignedOutHandler, type ApiError, type Me } from './api/client';
import { Link, Loading } from './components/ui';
import { currentMode, onModeChange, setMode, type Mode } from './lib/mode';
import { currentPath, navigate, useLocation } from './lib/router';
import { NAVIGATION } from './nav';
import { pageFor } from './pages/routes';
import { SignInPage } from './pages/sign-in';
import { SignUpPage } from './pages/sign-up';

type Session = { state: 'loading' } | { state: 'signed-out' } | { state: 'signed-in'; me: Me } | { state: 'unavailable'; message: string };

export function App() {
  const path = useLocation();
  const [session, setSession] = useState<Session>({ state: 'loading' });

  const load = () =>
    refreshMe()
      .then((me) => setSession(me ? { state: 'signed-in', me } : { state: 'signed-out' }))
      .catch((error: ApiError) =>
        setSession({
          state: 'unavailable',
          message: error.status === 404 ? 'O acesso de donos de conta ainda não está disponível neste servidor.' : error.message,
        }),
      );

  useEffect(() => {
    setSignedOutHandler(() => setSession({ state: 'signed-out' }));
    void load();
  }, []);

  if (session.state === 'loading') return <Loading what="Abrindo o painel…" />;
  if (session.state === 'unavailable') {
    return (
      <main id="conteudo" class="auth-page">
        <div class="auth-card">
          <h1>Painel indisponível</h1>
          <p role="alert" class="alert alert-error">
            {session.message}
          </p>
        </div>
      </main>
    );
  }
  if (session.state === 'signed-out') {
    const onSignedIn = () => {
      void load().then(() => {
        if (currentPath().startsWith('/entrar') || currentPath().startsWith('/cadastro') || currentPath() === '/') navigate('/pagamentos', { replace: true });
      });
    };
    return path.startsWith('/cadastro') ? <SignUpPage onSignedIn={onSignedIn} /> : <SignInPage onSignedIn={onSignedIn} />;
  }
  if (path === '/' || path.startsWith('/entrar') || path.startsWith('/cadastro')) {
    navigate('/pagamentos', { replace: true });
    return null;
  }
  return <Shell me={session.me} path={path} onSignedOut={() => setSession({ state: 'signed-out' })} />;
}

function Shell({ me, path, onSignedOut }: { me: Me; path: string; onSignedOut: () => void }) {
  const [mode, setLocalMode] = useState<Mode>(currentMode());
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => onModeChange(setLocalMode), []);
  useEffect(() => setMenuOpen(false), [path]);

  const signOut = async () => {
    await api('DELETE', '/session').catch(() => undefined);
    onSignedOut();
    navigate('/entrar', { replace: true });
  };
  const pathOnly = path.split('?')[0] ?? path;

  return (
    <div class={`shell mode-${mode}`}>
      <a class="skip-link" href="#conteudo">
        Pular para o conteúdo
      </a>
      {mode === 'test' ? (
        <div class="test-banner" role="note">
          Modo de teste — nada aqui movimenta dinheiro de verdade.
        </div>
      ) : null}
      <header class="topbar">
        <button type="button" class="menu-button" aria-expanded={menuOpen} aria-controls="navegacao" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <span class="brand">Orquestra</span>
        <span class="merchant" title={me.merchant.id}>
          {me.merchant.name}
        </span>
        <fieldset class="mode-switch">
          <legend class="visually-hidden">Modo</legend>
          <label class={mode === 'test' ? 'selected' : ''}>
            <input type="radio" name="modo" value="test" checked={mode === 'test'} onChange={() => setMode('test')} />
            Teste
          </label>
          <label class={mode === 'live' ? 'selected' : ''}>
            <input type="radio" name="modo" value="live" checked={mode === 'live'} onChange={() => setMode('live')} />
            Produção
          </label>
        </fieldset>
        <span class="owner">{me.owner.email}</span>
        <button type="button" class="button button-ghost button-small" onClick={signOut}>
          Sair
        </button>
      </header>
      <div class="layout">
        <nav id="navegacao" class={`sidebar ${menuOpen ? 'open' : ''}`} aria-label="Navegação principal">
          {NAVIGATION.map((group) => (
            <div class="nav-group" key={group.label}>
              <h2 class="nav-title">{group.label}</h2>
              <ul>
                {group.items.map((item) => {
                  const active = pathOnly === item.path || pathOnly.startsWith(`${item.path}/`);
                  return (
                    <li key={item.path}>
                      <Link href={item.path} class={active ? 'active' : ''} aria-current={active ? 'page' : undefined}>
                        {item.label}
                      </Link>
                    </li>
                  );
                })}
              </ul>
            </div>
          ))}
        </nav>
        <main id="conteudo" class="content" tabIndex={-1}>
          {pageFor(path, me)}
        </main>
      </div>
    </div>
  );
}
