import { z } from 'zod';

/**
 * What the dashboard control routes share (`POST /__control/dashboard-charges`, `POST
 * /__control/charges/:id/status`, issue 18): the statuses every emulator names the same way, the
 * body of a dashboard charge on emulators keyed by an account credential, and the moves that bring
 * a new dashboard charge to the status asked for. What each status means at the provider, and
 * which moves it refuses, stays in the emulator.
 */
export const DASHBOARD_STATUSES = ['pending', 'paid', 'canceled', 'expired', 'refunded', 'failed'] as const;

export type DashboardStatus = (typeof DASHBOARD_STATUSES)[number];

/**
 * The body of `POST /__control/dashboard-charges` where the account is named by the credential the
 * integrator's calls carry (Asaas's API key, Mercado Pago's access token), for the statuses the
 * provider has (`statuses` starts with `pending`, the default).
 */
export function dashboardChargeSchema<S extends DashboardStatus>(statuses: readonly ['pending', ...S[]]) {
  return z
    .object({
      /** The account's credential (API key or access token). */
      account: z.string().min(1),
      amount: z.number().int().min(1).max(99_999_999_999),
      method: z.enum(['pix', 'boleto', 'card']).default('pix'),
      status: z.enum(statuses).default('pending'),
      created_at: z.string().datetime({ offset: true }).optional(),
    })
    .strict();
}

/**
 * Brings a charge just made in the dashboard (so pending) to `status` by the moves a buyer and the
 * dashboard would make: paid and refunded pass through paid (a refund needs a paid charge), and
 * canceled, expired and failed are one move from pending. `move` answers a refusal or nothing;
 * from pending none of these moves is refused, so the answer is not read.
 */
export function reachDashboardStatus<S extends DashboardStatus>(status: S, move: (target: S | 'paid') => unknown): void {
  if (status === 'paid' || status === 'refunded') move('paid');
  if (status !== 'pending' && status !== 'paid') move(status);
}
