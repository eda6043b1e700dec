import type { ReconciliationFindingJson } from '../schemas/reconciliation.response.schema';

// GET /v1/reconciliation-runs/{id}/findings.csv: RFC 4180 CSV (comma, CRLF, double quotes),
// one row per field on which the two sides differ, so a spreadsheet filter on `field` shows, say,
// every status difference with both values side by side.

export const FINDINGS_CSV_COLUMNS = [
  'kind',
  'provider_account_id',
  'payment_id',
  'provider_payment_id',
  'field',
  'ours',
  'theirs',
  'fix_result',
  'created_at',
] as const;

/**
 * Characters that make a spreadsheet read a cell as a formula (=, +, -, @) or that Excel and
 * LibreOffice strip before doing so (tab, carriage return): such a cell gets a leading apostrophe,
 * so a charge description or id made by someone else can never run as a formula on the merchant's
 * computer (OWASP "CSV injection").
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One cell: formula-neutralized, then quoted when it holds a comma, a quote or a line break. */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One CSV line, CRLF-terminated. */
export function csvLine(cells: ReadonlyArray<string | null | undefined>): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

export const FINDINGS_CSV_HEADER = csvLine(FINDINGS_CSV_COLUMNS);

/**
 * A finding's rows: one per field named on either side (sorted, so the file is the same on every
 * download). A charge unknown to Orquestra has only `theirs` (every value the provider reported is
 * a row); a payment missing at the provider only `ours`. A finding with no values at all still
 * gets one row, with `field` empty, so no finding is ever lost from the file.
 */
export function findingCsvLines(finding: ReconciliationFindingJson): string {
  const fields = [...new Set([...Object.keys(finding.ours), ...Object.keys(finding.theirs)])].sort();
  const row = (field: string, ours: string | undefined, theirs: string | undefined) =>
    csvLine([
      finding.kind,
      finding.provider_account_id,
      finding.payment_id,
      finding.provider_payment_id,
      field,
      ours,
      theirs,
      finding.fix_result,
      finding.created_at,
    ]);
  if (fields.length === 0) return row('', undefined, undefined);
  return fields.map((field) => row(field, finding.ours[field], finding.theirs[field])).join('');
}
