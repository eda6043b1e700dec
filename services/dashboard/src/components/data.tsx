/** Loading data and running actions: their states, errors and notices. */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError, v1, type List } from '../api/client';
import { onModeChange } from '../lib/mode';

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
}

/**
 * A list the API pages with `starting_after`: the rows loaded so far for `query` and `more()` for
 * the next page. A new `query` object (a submitted filter form) starts from the first page again.
 */
export function usePagedList<T extends { id: string }>(path: string, query: Record<string, string>, pageSize = 25): { loaded: Loaded<List<T>>; rows: T[]; more: () => void } {
  const [after, setAfter] = useState<{ query: Record<string, string>; id: string }>({ query, id: '' });
  const startingAfter = after.query === query ? after.id : '';
  const [rows, setRows] = useState<T[]>([]);
  const loaded = useLoad(async () => {
    const page = await v1<List<T>>('GET', path, { query: { ...query, limit: pageSize, starting_after: startingAfter } });
    setRows((previous) => (startingAfter ? [...previous, ...page.data] : page.data));
    return page;
  }, [path, query, startingAfter]);
  return { loaded, rows, more: () => setAfter({ query, id: rows.at(-1)?.id ?? '' }) };
}

/** Loads with `load` when `deps` (or the test/live mode) change; keeps the last data while reloading. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[] = []): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const reload = useCallback(() => setTick((n) => n + 1), []);
  useEffect(() => onModeChange(() => reload()), [reload]);
  useEffect(() => {
    let alive = true;
    setLoading(true);
    load()
      .then((value) => {
        if (!alive) return;
        setData(value);
        setError(undefined);
      })
      .catch((caught: unknown) => {
        if (!alive) return;
        setError(asApiError(caught));
      })
      .finally(() => alive && setLoading(false));
    return () => {
      alive = false;
    };
  }, [...deps, tick]);
  return { data, error, loading, reload };
}

export function asApiError(caught: unknown): ApiError {
  return caught instanceof ApiError ? caught : new ApiError(0, 'error', 'Algo deu errado. Tente de novo.');
}

/** Runs a user action: busy flag, error kept to show, success callback. */
export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<ApiError | undefined>(undefined);
  const run = async (...args: A): Promise<R | undefined> => {
    setBusy(true);
    setError(undefined);
    try {
      return await action(...args);
    } catch (caught) {
      setError(asApiError(caught));
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { run, busy, error, clearError: () => setError(undefined) };
}

export function ErrorMessage({ error }: { error: ApiError | undefined | null }) {
  if (!error) return null;
  return (
    <p class="alert alert-error" role="alert">
      {error.message}
      {error.param ? <span class="muted"> (campo: {error.param})</span> : null}
    </p>
  );
}

export function Notice({ children, tone = 'info' }: { children: ComponentChildren; tone?: 'info' | 'ok' | 'warn' }) {
  return (
    <p class={`alert alert-${tone}`} role="status">
      {children}
    </p>
  );
}

export function Loading({ what = 'Carregando…' }: { what?: string }) {
  return (
    <p class="loading" role="status" aria-live="polite">
      {what}
    </p>
  );
}

/** Loading, error or the content, for one Loaded value. */
export function Show<T>({ loaded, children, empty }: { loaded: Loaded<T>; children: (data: T) => ComponentChildren; empty?: (data: T) => boolean }) {
  if (loaded.error && loaded.data === undefined) return <ErrorMessage error={loaded.error} />;
  if (loaded.data === undefined) return <Loading />;
  if (empty?.(loaded.data)) return <p class="empty">Nada por aqui ainda.</p>;
  return <>{children(loaded.data)}</>;
}
