/** Output formats of the commands that print API objects. */
export type OutputFormat = 'json' | 'table';

export function parseFormat(value: string): OutputFormat {
  if (value === 'json' || value === 'table') return value;
  throw new Error(`formato desconhecido: ${value} (use json ou table)`);
}

export const toJson = (value: unknown): string => JSON.stringify(value, null, 2);

/** Reais from integer cents, for display only (1990 → "19,90"). */
export function formatCents(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const absolute = Math.abs(Math.trunc(cents));
  return `${sign}${Math.floor(absolute / 100)},${String(absolute % 100).padStart(2, '0')}`;
}

/** A plain-text table: one header line, columns padded to their widest cell. */
export function table(columns: readonly string[], rows: ReadonlyArray<ReadonlyArray<string>>): string {
  const widths = columns.map((column, index) => Math.max(column.length, ...rows.map((row) => (row[index] ?? '').length)));
  const line = (cells: ReadonlyArray<string>) =>
    cells
      .map((cell, index) => (index === cells.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(columns), ...rows.map(line)].join('\n');
}

/** Local time as HH:MM:SS (what a developer watching a terminal reads). */
export function clock(date: Date): string {
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
}
