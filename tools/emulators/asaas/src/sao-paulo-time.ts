/**
 * Asaas writes dates in Brasília time without an offset (`2024-06-12 16:45:03`, `2024-06-12`).
 * America/Sao_Paulo has kept UTC−03:00 all year since daylight saving ended in 2019.
 */
const OFFSET_MS = 3 * 60 * 60 * 1000;

/** `YYYY-MM-DD` in São Paulo. */
export function spDate(at: Date): string {
  return new Date(at.getTime() - OFFSET_MS).toISOString().slice(0, 10);
}

/** `YYYY-MM-DD HH:mm:ss` in São Paulo. */
export function spDateTime(at: Date): string {
  return new Date(at.getTime() - OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');
}

/** A real calendar date `YYYY-MM-DD`. */
export function isIsoDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const parsed = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === text;
}

/** The same day `months` later (clamped to the month's last day). */
export function addMonths(isoDate: string, months: number): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  const target = new Date(Date.UTC(year, month - 1 + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(day, lastDay));
  return target.toISOString().slice(0, 10);
}
