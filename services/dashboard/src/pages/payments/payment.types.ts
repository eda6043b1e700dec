/** The payment as GET /v1/payments/{id} answers it (the fields the dashboard shows). */
export interface Payment {
  id: string;
  mode: 'test' | 'live';
  method: string | null;
  status: string;
  amount: number;
  amount_refunded: number;
  fee: number;
  net: number;
  provider: string | null;
  provider_account_id: string | null;
  provider_payment_id: string | null;
  metadata: Record<string, string>;
  failure_reason: string | null;
  failure_code: string | null;
  end_to_end_id: string | null;
  subscription_id: string | null;
  payment_url: string | null;
  tracking: Record<string, string>;
  customer: { id: string | null; name: string | null; email: string | null; document: string | null } | null;
  description: string | null;
  created_at: string;
  attempts?: Array<{ id: string; provider: string | null; provider_account_id: string | null; outcome: string; failure_code: string | null; failure_reason: string | null; latency_ms: number; created_at: string }>;
  refunds?: Array<{ id: string; amount: number; status: string; reason: string | null; source: string; failure_reason: string | null; created_at: string }>;
  events?: Array<{ id: string; type: string; created: number }>;
}
