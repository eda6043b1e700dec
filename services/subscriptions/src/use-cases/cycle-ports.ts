import type { payments, providers } from '@orquestra/contracts';
import type { RpcClient } from '@orquestra/platform';

/** What cycles need of the payments service: the cycle payments themselves. */
export type CyclePayments = Pick<RpcClient<typeof payments.PaymentsServiceService>, 'createCyclePayment' | 'listPayments' | 'getPayment' | 'syncPayment'>;

/** What cycles need of the providers service: reading a cycle charge, asking for a retry. */
export type CycleProvider = Pick<RpcClient<typeof providers.ProvidersServiceService>, 'getCycleCharge' | 'retryCycleCharge'>;
