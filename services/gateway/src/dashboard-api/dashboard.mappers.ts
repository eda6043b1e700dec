import { accounts, common, type owners } from '@orquestra/contracts';
import type { z } from '../schemas/zod-openapi';
import type { ApiKeySchema, AuditEntrySchema, PayoutDestinationSchema, PayoutSettingsSchema } from './dashboard.schemas';

type ModeName = 'test' | 'live';

export function modeOf(mode: common.Mode): ModeName | null {
  return mode === common.Mode.MODE_LIVE ? 'live' : mode === common.Mode.MODE_TEST ? 'test' : null;
}

export function toApiKeyJson(key: accounts.ApiKey | undefined): z.infer<typeof ApiKeySchema> {
  if (!key) throw new Error('accounts answered without the key');
  return {
    id: key.id,
    name: key.name,
    mode: modeOf(key.mode) ?? 'test',
    restricted: key.kind !== accounts.KeyKind.KEY_KIND_FULL,
    last4: key.last4,
    created_by: key.created_by || null,
    created_at: key.created_at,
    last_used_at: key.last_used_at ?? null,
    revoked_at: key.revoked_at ?? null,
  };
}

export function toAuditJson(entry: owners.AuditEntry): z.infer<typeof AuditEntrySchema> {
  return { id: entry.id, actor: entry.actor, action: entry.action, target: entry.target, mode: modeOf(entry.mode), created_at: entry.created_at, ip: entry.ip };
}

export function toPayoutSettingsJson(settings: accounts.PayoutSettings | undefined): z.infer<typeof PayoutSettingsSchema> {
  return { payouts_api_enabled: settings?.api_enabled ?? false, daily_limit: settings?.daily_limit ?? 0, updated_at: settings?.updated_at || null };
}

export function toDestinationJson(destination: accounts.PayoutDestination | undefined): z.infer<typeof PayoutDestinationSchema> {
  if (!destination) throw new Error('accounts answered without the destination');
  return {
    id: destination.id,
    mode: modeOf(destination.mode) ?? 'test',
    pix_key_type: destination.key_type,
    pix_key: destination.key,
    name: destination.label,
    created_at: destination.created_at,
  };
}
