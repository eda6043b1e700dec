/**
 * Which connected accounts may take a payment, in which order (ARCHITECTURE.md "Failover").
 * Pure: no I/O. An account is eligible when it is enabled, in the caller's mode, takes the method,
 * and the customer data it requires for that method is present (bot rule 5).
 */
export type CustomerField = 'document' | 'email' | 'phone' | 'address';

export interface RoutableAccount {
  id: string;
  provider: string;
  mode: 'test' | 'live';
  enabled: boolean;
  priority: number;
  methods: string[];
  /** "<method>:<field>" entries. */
  requires: string[];
}

export interface RoutingInput {
  mode: 'test' | 'live';
  method: string;
  customerHas: Record<CustomerField, boolean>;
  forcedAccountId?: string;
}

export type RoutingDecision =
  | { ok: true; candidates: Array<RoutableAccount & { reason: string }> }
  | { ok: false; code: 'no_eligible_account' | `missing_${CustomerField}`; param: string };

const FIELD_ORDER: CustomerField[] = ['document', 'email', 'phone', 'address'];

export function missingFields(account: RoutableAccount, method: string, has: Record<CustomerField, boolean>): CustomerField[] {
  return FIELD_ORDER.filter((field) => account.requires.includes(`${method}:${field}`) && !has[field]);
}

export function route(accounts: RoutableAccount[], input: RoutingInput): RoutingDecision {
  const pool = accounts.filter(
    (account) =>
      account.mode === input.mode &&
      account.enabled &&
      account.methods.includes(input.method) &&
      (!input.forcedAccountId || account.id === input.forcedAccountId),
  );
  if (pool.length === 0) {
    return { ok: false, code: 'no_eligible_account', param: input.forcedAccountId ? 'provider_account_id' : 'method' };
  }
  const eligible = pool.filter((account) => missingFields(account, input.method, input.customerHas).length === 0);
  if (eligible.length === 0) {
    // Name the datum that would unlock the most accounts, so the caller knows what to send.
    const counts = new Map<CustomerField, number>();
    for (const account of pool) {
      for (const field of missingFields(account, input.method, input.customerHas)) counts.set(field, (counts.get(field) ?? 0) + 1);
    }
    const field = FIELD_ORDER.filter((f) => counts.has(f)).sort((a, b) => counts.get(b)! - counts.get(a)!)[0] ?? 'document';
    return { ok: false, code: `missing_${field}`, param: `customer.${field}` };
  }
  const ordered = [...eligible].sort((a, b) => a.priority - b.priority || a.id.localeCompare(b.id));
  return {
    ok: true,
    candidates: ordered.map((account, index) => ({
      ...account,
      reason: input.forcedAccountId ? 'forced by provider_account_id' : `eligible; priority ${account.priority} (rank ${index + 1})`,
    })),
  };
}
