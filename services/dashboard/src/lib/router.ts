/**
 * A small history router for the dashboard: paths under /dashboard, links that navigate without a
 * reload, and a hook that re-renders on navigation. The gateway answers index.html for every
 * /dashboard path, so a reload or a shared link opens the same page.
 */
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/dashboard';

const listeners = new Set<() => void>();
let navigated = false;

/** False until the first navigation inside the app: a fresh load keeps the browser's own focus order. */
export function hasNavigated(): boolean {
  return navigated;
}

/** The path inside the dashboard ("/pagamentos/pay_123"), without the query. */
export function currentPath(): string {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : location.pathname;
  return path === '' ? '/' : path;
}

export function currentQuery(): URLSearchParams {
  return new URLSearchParams(location.search);
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = `${BASE}${to}`;
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  navigated = true;
  for (const listener of listeners) listener();
}

addEventListener('popstate', () => {
  navigated = true;
  for (const listener of listeners) listener();
});

/** Re-renders the caller when the address changes; returns the current path. */
export function useLocation(): string {
  const [path, setPath] = useState(currentPath());
  useEffect(() => {
    const listener = () => setPath(currentPath() + location.search);
    listeners.add(listener);
    return () => {
      listeners.delete(listener);
    };
  }, []);
  return path;
}

/** Matches "/pagamentos/:id" against a path; the params or undefined. */
export function match(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/');
  const got = (path.split('?')[0] ?? path).split('/');
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const segment = got[i] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(segment);
    else if (part !== segment) return undefined;
  }
  return params;
}
