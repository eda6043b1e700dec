import { AppError, isAppError } from '@orquestra/platform';
import { Router } from 'express';
import type { DownstreamClients } from '../grpc/downstream.clients';
import { jsonBodyMiddleware } from '../http/json-body.middleware';
import { rpcOptions } from '../http/request-context';
import { parseOrThrow } from '../validation/zod-issue.mapper';
import { toAuditJson, toDestinationJson, toPayoutSettingsJson } from './dashboard.mappers';
import { dashboardMode } from './dashboard-mode';
import { AuditQuerySchema, DASHBOARD_FIELD_HINTS, PayoutDestinationBodySchema, PayoutSettingsBodySchema } from './dashboard.schemas';
import { actorOf, ownerOf } from './owner-session';

/** accounts names the saved key's fields key_type / key / label; the dashboard's are these. */
const DESTINATION_PARAMS: Record<string, string> = { key_type: 'pix_key_type', key: 'pix_key', label: 'name' };
const SETTINGS_PARAMS: Record<string, string> = { api_enabled: 'payouts_api_enabled' };

async function renamingParams<T>(names: Record<string, string>, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (isAppError(error) && error.param && names[error.param]) {
      throw new AppError(error.code, { param: names[error.param], message: error.message, cause: error });
    }
    throw error;
  }
}

type Clients = Pick<DownstreamClients, 'accounts' | 'owners'>;

/** The audit log, and the owner's payout controls (payouts by API on/off, daily limit, saved Pix keys). */
export function ownerControlsRoutes(clients: Clients): Router {
  const router = Router();

  router.get('/audit', async (req, res) => {
    const query = parseOrThrow(AuditQuerySchema, req.query, 'query');
    const page = await clients.owners.listAudit(
      { merchant_id: ownerOf(res).merchant_id, limit: query.limit ?? 20, starting_after: query.starting_after ?? '' },
      rpcOptions(res),
    );
    res.json({ data: page.data.map(toAuditJson), has_more: page.has_more });
  });

  router.get('/payout-settings', async (req, res) => {
    const { settings } = await clients.accounts.getPayoutSettings({ merchant_id: ownerOf(res).merchant_id, mode: dashboardMode(req) }, rpcOptions(res));
    res.json(toPayoutSettingsJson(settings));
  });

  router.patch('/payout-settings', jsonBodyMiddleware(), async (req, res) => {
    const mode = dashboardMode(req);
    const body = parseOrThrow(PayoutSettingsBodySchema, req.body, 'body', DASHBOARD_FIELD_HINTS);
    if (body.payouts_api_enabled === undefined && body.daily_limit === undefined) {
      throw new AppError('parameter_missing', { param: 'payouts_api_enabled', message: 'Informe o que mudar: payouts_api_enabled e/ou daily_limit.' });
    }
    const merchant_id = ownerOf(res).merchant_id;
    const { settings } = await renamingParams(SETTINGS_PARAMS, () =>
      clients.accounts.setPayoutSettings({ merchant_id, mode, api_enabled: body.payouts_api_enabled, daily_limit: body.daily_limit }, rpcOptions(res)),
    );
    const changes = Object.entries(body).map(([field, value]) => `${field}=${String(value)}`).join(' ');
    await clients.owners.recordAudit({ merchant_id, actor: actorOf(req, res), action: 'payout_settings.updated', target: changes, mode }, rpcOptions(res));
    res.json(toPayoutSettingsJson(settings));
  });

  router.get('/payout-destinations', async (req, res) => {
    const { destinations } = await clients.accounts.listPayoutDestinations({ merchant_id: ownerOf(res).merchant_id, mode: dashboardMode(req) }, rpcOptions(res));
    res.json({ data: destinations.map(toDestinationJson) });
  });

  router.post('/payout-destinations', jsonBodyMiddleware(), async (req, res) => {
    const mode = dashboardMode(req);
    const body = parseOrThrow(PayoutDestinationBodySchema, req.body, 'body', DASHBOARD_FIELD_HINTS);
    const merchant_id = ownerOf(res).merchant_id;
    const { destination } = await renamingParams(DESTINATION_PARAMS, () =>
      clients.accounts.createPayoutDestination({ merchant_id, mode, key_type: body.pix_key_type, key: body.pix_key, label: body.name }, rpcOptions(res)),
    );
    const saved = toDestinationJson(destination);
    await clients.owners.recordAudit({ merchant_id, actor: actorOf(req, res), action: 'payout_destination.created', target: saved.id, mode }, rpcOptions(res));
    res.status(201).json(saved);
  });
  return router;
}
