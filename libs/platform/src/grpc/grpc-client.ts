import {
  credentials,
  makeGenericClientConstructor,
  Metadata,
  status as GrpcStatus,
  type Client,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { RPC_RETRY_POLICY } from '@orquestra/contracts';
import { AppError, isErrorCode } from '../errors';
import { ERROR_CODE_KEY, ERROR_PARAM_KEY, ERROR_RETRY_AFTER_KEY, REQUEST_ID_KEY } from './status-map';

type RequestOf<M> = M extends { requestSerialize: (value: infer Req) => Buffer } ? Req : never;
type ResponseOf<M> = M extends { responseDeserialize: (bytes: Buffer) => infer Res } ? Res : never;

export interface CallOptions {
  /** Overrides the client's default deadline for this call. */
  deadlineMs?: number;
  requestId?: string;
}

/** Promise-returning methods keyed like the generated service definition. */
export type RpcClient<D> = {
  [K in keyof D]: (request: RequestOf<D[K]>, options?: CallOptions) => Promise<ResponseOf<D[K]>>;
} & { close(): void };

/**
 * Error raised when a downstream call fails. It is an AppError with the downstream's normalized
 * code, plus the raw gRPC status for callers that must tell "certainly not done" (UNAVAILABLE
 * before connecting) from "maybe done" (DEADLINE_EXCEEDED).
 */
export class RpcError extends AppError {
  constructor(
    code: ConstructorParameters<typeof AppError>[0],
    readonly grpcStatus: GrpcStatus,
    options: { param?: string; message?: string; cause?: unknown; retryAfterSeconds?: number },
  ) {
    super(code, options);
  }
}

function toRpcError(error: ServiceError): RpcError {
  const code = String(error.metadata?.get(ERROR_CODE_KEY)[0] ?? '');
  const param = error.metadata?.get(ERROR_PARAM_KEY)[0];
  const retryAfter = Number(error.metadata?.get(ERROR_RETRY_AFTER_KEY)[0] ?? Number.NaN);
  if (isErrorCode(code)) {
    return new RpcError(code, error.code, {
      message: error.details,
      param: param === undefined ? undefined : String(param),
      cause: error,
      ...(Number.isFinite(retryAfter) && retryAfter >= 0 ? { retryAfterSeconds: retryAfter } : {}),
    });
  }
  // No normalized code: the peer was unreachable, too slow or crashed. Never leak its text.
  return new RpcError(error.code === GrpcStatus.INTERNAL ? 'internal' : 'service_unavailable', error.code, {
    cause: error,
  });
}

/** How a client retries calls that are safe to repeat (see RPC_RETRY_POLICY). */
export interface RetrySettings {
  /** Attempts in all, the first included (grpc-js caps it at 5). */
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  backoffMultiplier: number;
  /**
   * The retry budget (gRPC retry throttling, per target in the process): every failed call costs a
   * token, every success gives back `tokenRatio`; retries stop while at most half are left.
   */
  maxTokens: number;
  tokenRatio: number;
}

export const DEFAULT_RETRY: RetrySettings = {
  maxAttempts: 3,
  initialBackoffMs: 50,
  maxBackoffMs: 500,
  backoffMultiplier: 2,
  maxTokens: 20,
  tokenRatio: 0.1,
};

export interface RpcClientDefaults {
  deadlineMs: number;
  retry?: Partial<RetrySettings>;
  /** Extra grpc-js channel options (tests: DNS re-resolution pace, keepalive). */
  channelOptions?: Record<string, string | number>;
}

/** Name resolvers grpc-js knows: a target starting with one is passed on as it is. */
const SCHEME = /^(dns|ipv4|ipv6|unix|unix-abstract|vsock):/;
const IPV4_ADDRESS = /^\d{1,3}(\.\d{1,3}){3}:\d{1,5}$/;
const IPV6_ADDRESS = /^\[[0-9a-f:.]+\]:\d{1,5}$/i;

/**
 * The grpc-js target for a configured address. Accepted forms (every `*_GRPC_ADDR`):
 * - `host:port`: resolved by DNS, every address it resolves to is balanced (`round_robin`);
 * - `dns:///name:port`: the same, explicitly (Kubernetes: a headless Service's name);
 * - `ipv4:10.0.0.1:50051,10.0.0.2:50051` or `ipv6:[::1]:50051,[::1]:50061`: a fixed list;
 * - `127.0.0.1:50051,127.0.0.1:50061`: a fixed list without its scheme (IP literals only, all of
 *   one family), taken as `ipv4:` or `ipv6:`.
 */
export function rpcTarget(address: string): string {
  const trimmed = address.trim();
  if (!trimmed.includes(',')) return trimmed;
  if (SCHEME.test(trimmed)) return trimmed;
  const parts = trimmed.split(',').map((part) => part.trim()).filter(Boolean);
  if (parts.every((part) => IPV4_ADDRESS.test(part))) return `ipv4:${parts.join(',')}`;
  if (parts.every((part) => IPV6_ADDRESS.test(part))) return `ipv6:${parts.join(',')}`;
  throw new Error(
    `gRPC address "${address}": a list takes IP literals of one family (127.0.0.1:50051,127.0.0.1:50061); for names use dns:///name:port, which balances over every address the name resolves to`,
  );
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(3)}s`;
}

/**
 * The channel's service config: `round_robin` over every resolved address, a retry policy on
 * UNAVAILABLE and UNIMPLEMENTED for the given methods, and the retry budget.
 */
export function serviceConfigFor(methods: Array<{ service: string; method: string }>, retry: RetrySettings): string {
  return JSON.stringify({
    loadBalancingConfig: [{ round_robin: {} }],
    methodConfig: methods.length
      ? [
          {
            name: methods,
            retryPolicy: {
              maxAttempts: retry.maxAttempts,
              initialBackoff: seconds(retry.initialBackoffMs),
              maxBackoff: seconds(retry.maxBackoffMs),
              backoffMultiplier: retry.backoffMultiplier,
              // UNIMPLEMENTED: a replica that listens but has not registered its handlers yet
              // (starting: health NOT_SERVING; a fixed address list has no readiness gate, unlike
              // a headless Service's DNS). No handler ran, so the call is as safe to repeat as
              // after UNAVAILABLE; a method really missing everywhere fails after maxAttempts.
              retryableStatusCodes: ['UNAVAILABLE', 'UNIMPLEMENTED'],
            },
          },
        ]
      : [],
    retryThrottling: { maxTokens: retry.maxTokens, tokenRatio: retry.tokenRatio },
  });
}

/** `{ getPayment: { service, method: 'GetPayment' } }` from the definition's paths. */
function protoNames(definition: ServiceDefinition): Map<string, { service: string; method: string }> {
  const names = new Map<string, { service: string; method: string }>();
  for (const [key, method] of Object.entries(definition)) {
    const [, service, name] = /^\/(.+)\/([^/]+)$/.exec(method.path) ?? [];
    if (service && name) names.set(key, { service, method: name });
  }
  return names;
}

/**
 * Creates a promise client for a generated service definition. Every call carries a deadline
 * (the default unless overridden, covering every attempt) and the request id.
 *
 * Calls are balanced `round_robin` over every address the target resolves to (see rpcTarget), so
 * every replica behind a headless Service or a local address list takes its share; servers close
 * connections after GRPC_MAX_CONNECTION_AGE_MS, and the client then resolves again and finds new
 * replicas. A call the replica could not answer (UNAVAILABLE without a handler's answer: a dead or
 * unreachable replica, a dropped connection) is sent again, within its deadline and the retry
 * budget, when RPC_RETRY_POLICY says repeating it is safe: reads always, a keyed write when its
 * request carries an `idempotency_key`. A handler's own error is never retried (the server marks
 * it with a negative `grpc-retry-pushback-ms`).
 *
 * @example
 * const payments = createRpcClient(PaymentsServiceService, 'localhost:50052', { deadlineMs: 5000 });
 * const { payment } = await payments.getPayment({ caller, payment_id }, { requestId });
 */
export function createRpcClient<D extends ServiceDefinition>(
  definition: D,
  address: string,
  defaults: RpcClientDefaults,
): RpcClient<D> {
  const target = rpcTarget(address);
  const retry = { ...DEFAULT_RETRY, ...defaults.retry };
  const names = protoNames(definition);
  const serviceName = [...names.values()][0]?.service ?? '';
  const policy = RPC_RETRY_POLICY[serviceName];
  const retryable = new Set(policy?.retry ?? []);
  const keyed = new Set(policy?.keyed ?? []);
  const Constructor = makeGenericClientConstructor(definition, 'orquestra');
  const channel = (methods: Set<string>) =>
    new Constructor(target, credentials.createInsecure(), {
      'grpc.keepalive_time_ms': 30_000,
      'grpc.enable_retries': 1,
      'grpc.service_config': serviceConfigFor(
        [...methods].map((method) => ({ service: serviceName, method })),
        retry,
      ),
      ...defaults.channelOptions,
    }) as Client & Record<string, (...args: unknown[]) => unknown>;
  const client = channel(retryable);
  // A keyed write is retried only with its key: such calls take a second channel whose config
  // retries them too (the retry budget is per target, so both channels share it).
  let keyedClient: (Client & Record<string, (...args: unknown[]) => unknown>) | undefined;
  const clientFor = (key: string, request: unknown) => {
    const method = names.get(key)?.method ?? '';
    if (!keyed.has(method) || !(request as { idempotency_key?: string } | null)?.idempotency_key) return client;
    keyedClient ??= channel(new Set([...retryable, ...keyed]));
    return keyedClient;
  };
  const rpc: Record<string, unknown> = {
    close: () => {
      client.close();
      keyedClient?.close();
    },
  };
  for (const key of Object.keys(definition)) {
    rpc[key] = (request: unknown, options: CallOptions = {}) =>
      new Promise((resolve, reject) => {
        const metadata = new Metadata();
        if (options.requestId) metadata.set(REQUEST_ID_KEY, options.requestId);
        const deadline = new Date(Date.now() + (options.deadlineMs ?? defaults.deadlineMs));
        const target = clientFor(key, request);
        const method = target[key];
        if (!method) {
          reject(new Error(`unknown rpc ${key}`));
          return;
        }
        method.call(target, request, metadata, { deadline }, (error: ServiceError | null, response: unknown) =>
          error ? reject(toRpcError(error)) : resolve(response),
        );
      });
  }
  return rpc as RpcClient<D>;
}
