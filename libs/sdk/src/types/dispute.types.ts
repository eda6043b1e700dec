import type { Mode, PageParams } from './common.types';

export interface Dispute {
  id: string;
  object: 'dispute';
  kind: 'med' | 'chargeback';
  status: 'open' | 'under_review' | 'won' | 'lost' | 'canceled';
  amount: number;
  reason: string | null;
  due_at: string;
  payment_id: string;
  provider: string;
  mode: Mode;
  evidence: { text: string; urls: string[]; submitted_at: string } | null;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
}

export interface ListDisputesParams extends PageParams {
  status?: Dispute['status'];
  payment_id?: string;
}
