/**
 * The dashboard's building blocks: links that route without a reload, data loading with its
 * states, labelled fields, tables, badges, secrets shown once and confirmations in a modal
 * <dialog> (native focus handling and Esc). Every control is reachable by keyboard.
 */
import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import { formatBrl, formatDateTime } from '../lib/format';
import { statusLabel, statusTone } from '../lib/labels';
import { BASE, hasNavigated, navigate } from '../lib/router';
import { onModeChange } from '../lib/mode';

export function Link(props: { href: string; children: ComponentChildren; class?: string; 'aria-current'?: 'page' | undefined }) {
  const onClick = (event: MouseEvent) => {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    navigate(props.href);
  };
  return (
    <a href={`${BASE}${props.href}`} class={props.class} aria-current={props['aria-current']} onClick={onClick}>
      {props.children}
    </a>
  );
}

export interface Loaded<T> {
  data: T | undefined;
  error: ApiError | undefined;
  loading: boolean;
  reload: () => void;
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

export function PageHeader({ title, description, actions }: { title: string; description?: string; actions?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${title} — Orquestra`;
    // Screen readers and keyboards start at the new page's title after a navigation (a fresh load
    // keeps the document's order, so the first Tab reaches the skip link).
    if (hasNavigated()) heading.current?.focus({ preventScroll: true });
  }, [title]);
  return (
    <div class="page-header">
      <div>
        <h1 tabIndex={-1} ref={heading}>
          {title}
        </h1>
        {description ? <p class="muted">{description}</p> : null}
      </div>
      {actions ? <div class="page-actions">{actions}</div> : null}
    </div>
  );
}

export function Section({ title, children, id }: { title: string; children: ComponentChildren; id?: string }) {
  const headingId = `${id ?? title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}-titulo`;
  return (
    <section class="card" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  );
}

let fieldCounter = 0;
function useId(prefix: string): string {
  const ref = useRef<string | undefined>(undefined);
  if (!ref.current) ref.current = `${prefix}-${(fieldCounter += 1)}`;
  return ref.current;
}

interface InputProps {
  label: string;
  hint?: string;
  value: string;
  onValue: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'search' | 'url' | 'number' | 'date';
  placeholder?: string;
  required?: boolean;
  autoComplete?: string;
  inputMode?: 'numeric' | 'decimal' | 'text' | 'email';
  pattern?: string;
  minLength?: number;
  min?: number;
  autoFocus?: boolean;
}

export function Field({ label, hint, value, onValue, ...rest }: InputProps) {
  const id = useId('campo');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} value={value} onInput={(event) => onValue((event.currentTarget as HTMLInputElement).value)} aria-describedby={hint ? `${id}-dica` : undefined} {...(rest as object)} />
      {hint ? (
        <small id={`${id}-dica`} class="muted">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

export function TextArea({ label, value, onValue, hint, required }: { label: string; value: string; onValue: (value: string) => void; hint?: string; required?: boolean }) {
  const id = useId('texto');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} value={value} required={required} rows={4} onInput={(event) => onValue((event.currentTarget as HTMLTextAreaElement).value)} aria-describedby={hint ? `${id}-dica` : undefined} />
      {hint ? (
        <small id={`${id}-dica`} class="muted">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

export function Select({ label, value, onValue, options, hint }: { label: string; value: string; onValue: (value: string) => void; options: Array<[string, string]>; hint?: string }) {
  const id = useId('opcao');
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(event) => onValue((event.currentTarget as HTMLSelectElement).value)}>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
      {hint ? <small class="muted">{hint}</small> : null}
    </div>
  );
}

export function Checkbox({ label, checked, onChecked, hint }: { label: string; checked: boolean; onChecked: (checked: boolean) => void; hint?: string }) {
  const id = useId('marcar');
  return (
    <div class="field field-check">
      <input type="checkbox" id={id} checked={checked} onChange={(event) => onChecked((event.currentTarget as HTMLInputElement).checked)} />
      <label for={id}>{label}</label>
      {hint ? <small class="muted">{hint}</small> : null}
    </div>
  );
}

export interface Column<T> {
  header: string;
  cell: (row: T) => ComponentChildren;
  class?: string;
}

export function Table<T>({ caption, columns, rows, rowKey }: { caption: string; columns: Column<T>[]; rows: T[]; rowKey: (row: T) => string }) {
  if (rows.length === 0) return <p class="empty">Nada por aqui ainda.</p>;
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={caption}>
      <table>
        <caption class="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th scope="col" key={column.header} class={column.class}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} class={column.class} data-label={column.header}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

export function Badge({ status }: { status: string | null | undefined }) {
  return <span class={`badge badge-${statusTone(status)}`}>{statusLabel(status)}</span>;
}

export const Money = ({ cents }: { cents: number | null | undefined }) => <span class="money">{formatBrl(cents)}</span>;
export const When = ({ at }: { at: string | number | null | undefined }) => <span class="when">{formatDateTime(at)}</span>;

/** A secret the API shows only once: read-only, selectable, with a copy button. */
export function SecretOnce({ label, secret, onDone }: { label: string; secret: string; onDone?: () => void }) {
  const [copied, setCopied] = useState(false);
  const id = useId('segredo');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      (document.getElementById(id) as HTMLInputElement | null)?.select();
    }
  };
  return (
    <div class="secret" role="region" aria-label={label}>
      <p>
        <strong>{label}</strong> — copie agora: ele não será mostrado de novo.
      </p>
      <div class="secret-row">
        <input id={id} class="mono" readOnly value={secret} aria-label={label} onFocus={(event) => (event.currentTarget as HTMLInputElement).select()} />
        <button type="button" class="button" onClick={copy}>
          {copied ? 'Copiado!' : 'Copiar'}
        </button>
        {onDone ? (
          <button type="button" class="button button-ghost" onClick={onDone}>
            Já copiei
          </button>
        ) : null}
      </div>
      <span class="visually-hidden" aria-live="polite">
        {copied ? 'Copiado para a área de transferência' : ''}
      </span>
    </div>
  );
}

/** A button that asks in a modal dialog before acting (revocations, refunds…). */
export function ConfirmButton({ label, title, message, confirmLabel, onConfirm, danger = true, disabled }: { label: string; title: string; message: ComponentChildren; confirmLabel: string; onConfirm: () => Promise<unknown> | void; danger?: boolean; disabled?: boolean }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [busy, setBusy] = useState(false);
  const titleId = useId('confirmar');
  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      dialog.current?.close();
    }
  };
  return (
    <>
      <button type="button" class={`button button-small ${danger ? 'button-danger' : ''}`} disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} aria-labelledby={titleId} class="dialog">
        <h2 id={titleId}>{title}</h2>
        <div>{message}</div>
        <div class="dialog-actions">
          <button type="button" class="button button-ghost" onClick={() => dialog.current?.close()}>
            Cancelar
          </button>
          <button type="button" class={`button ${danger ? 'button-danger' : ''}`} disabled={busy} onClick={confirm}>
            {busy ? 'Aguarde…' : confirmLabel}
          </button>
        </div>
      </dialog>
    </>
  );
}

/** A form whose submit runs `onSubmit` (no page reload), with its error shown above the buttons. */
export function Form({ onSubmit, children, error, busy, submitLabel, label }: { onSubmit: () => void; children: ComponentChildren; error?: ApiError; busy?: boolean; submitLabel: string; label: string }) {
  return (
    <form
      class="form"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <ErrorMessage error={error} />
      <div class="form-actions">
        <button type="submit" class="button button-primary" disabled={busy}>
          {busy ? 'Aguarde…' : submitLabel}
        </button>
      </div>
    </form>
  );
}

/** "Carregar mais" for lists paged with starting_after. */
export function MoreButton({ hasMore, onMore, busy }: { hasMore: boolean | undefined; onMore: () => void; busy?: boolean }) {
  if (!hasMore) return null;
  return (
    <button type="button" class="button button-ghost" onClick={onMore} disabled={busy}>
      Carregar mais
    </button>
  );
}
