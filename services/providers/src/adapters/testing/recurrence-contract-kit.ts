import type { WebhookRequest } from '../provider-adapter';
import type { RecurrenceCapable, RecurrenceEvent } from '../provider-recurrences';
import { until } from './contract-kit';

/**
 * Helpers shared by the Pix Automático contract tests (test-only): the emulator's control port
 * (the payer's bank, the clock) and the recurrence events of the deliveries received so far.
 */

/** POSTs to the emulator's control port; answers the HTTP status. */
export async function controlPost(controlUrl: string, path: string, body: unknown = {}): Promise<number> {
  const response = await fetch(`${controlUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await response.text();
  return response.status;
}

/** Moves the emulator's clock forward to `at` (it never moves back). */
export async function clockTo(controlUrl: string, at: string): Promise<void> {
  const status = await controlPost(controlUrl, '/__control/clock', { set: at });
  if (status !== 200) throw new Error(`clock to ${at}: HTTP ${status}`);
}

/** Every event of the deliveries, as the adapter reads them; a delivery it refuses fails the test. */
export function recurrenceEvents(adapter: Pick<RecurrenceCapable, 'parseRecurrenceWebhook'>, received: readonly WebhookRequest[]): RecurrenceEvent[] {
  return received.flatMap((r) => {
    const parsed = adapter.parseRecurrenceWebhook(r);
    if (!parsed.ok) throw new Error(`delivery not accepted: ${parsed.reason}`);
    return parsed.events;
  });
}

/** Waits until a delivery reports an event with these fields. */
export function sawRecurrenceEvent(adapter: Pick<RecurrenceCapable, 'parseRecurrenceWebhook'>, received: readonly WebhookRequest[], match: Partial<RecurrenceEvent>): Promise<true> {
  const matches = (e: RecurrenceEvent) => Object.entries(match).every(([k, v]) => (e as Record<string, unknown>)[k] === v);
  return until(async () => (recurrenceEvents(adapter, received).some(matches) ? true : undefined), 5_000, JSON.stringify(match));
}
