/** Tables with captions and column headers (cards on small screens), status badges, money and dates. */
import type { ComponentChildren } from 'preact';
import { formatBrl, formatDateTime } from '../lib/format';
import { statusLabel, statusTone } from '../lib/labels';

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
export function MoreButton({ hasMore, onMore, busy }: { hasMore: boolean | undefined; onMore: () => void; busy?: boolean }) {
  if (!hasMore) return null;
  return (
    <button type="button" class="button button-ghost" onClick={onMore} disabled={busy}>
      Carregar mais
    </button>
  );
}
