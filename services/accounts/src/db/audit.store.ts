import { common, modeFromName, type owners } from '@orquestra/contracts';
import { modeName } from '@orquestra/contracts';
import { newId } from '@orquestra/platform';
import type { Model } from 'mongoose';
import type { AuditEntryDoc } from './owner.models';

export interface AuditInput {
  merchant_id: string;
  actor: { owner_id: string; email: string; ip: string } | undefined;
  action: string;
  target?: string;
  mode?: common.Mode;
}

function toEntry(doc: AuditEntryDoc): owners.AuditEntry {
  return {
    id: doc._id,
    owner_id: doc.owner_id,
    actor: doc.actor,
    action: doc.action,
    target: doc.target,
    mode: doc.mode ? modeFromName(doc.mode) : common.Mode.MODE_UNSPECIFIED,
    ip: doc.ip,
    created_at: doc.created_at.toISOString(),
  };
}

/** The owners' audit log: one insert per action, read newest first per merchant. */
export class AuditStore {
  constructor(private readonly audit: Model<AuditEntryDoc>) {}

  async record(input: AuditInput): Promise<owners.AuditEntry> {
    const mode = input.mode === common.Mode.MODE_TEST || input.mode === common.Mode.MODE_LIVE ? modeName(input.mode) : '';
    const doc: AuditEntryDoc = {
      _id: newId('auditEntry'),
      merchant_id: input.merchant_id,
      owner_id: input.actor?.owner_id ?? '',
      actor: input.actor?.email ?? '',
      action: input.action.slice(0, 100),
      target: (input.target ?? '').slice(0, 300),
      mode,
      ip: (input.actor?.ip ?? '').slice(0, 64),
      created_at: new Date(),
    };
    await this.audit.create(doc);
    return toEntry(doc);
  }

  async list(merchantId: string, limit: number, startingAfter: string): Promise<{ data: owners.AuditEntry[]; has_more: boolean }> {
    const size = Math.min(Math.max(limit || 20, 1), 100);
    const filter: Record<string, unknown> = { merchant_id: merchantId };
    if (startingAfter) filter['_id'] = { $lt: startingAfter };
    const docs = await this.audit.find(filter).sort({ _id: -1 }).limit(size + 1).lean();
    return { data: docs.slice(0, size).map(toEntry), has_more: docs.length > size };
  }
}
