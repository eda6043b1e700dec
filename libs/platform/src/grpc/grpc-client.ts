import {
  credentials,
  makeGenericClientConstructor,
  Metadata,
  status as GrpcStatus,
  type Client,
  type ServiceDefinition,
  type ServiceError,
} from '@grpc/grpc-js';
import { AppError, isErrorCode } from '../errors';
import { ERROR_CODE_KEY, ERROR_PARAM_KEY, REQUEST_ID_KEY } from './status-map';

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
    options: { param?: string; message?: string; cause?: unknown },
  ) {
    super(code, options);
  }
}

function toRpcError(error: ServiceError): RpcError {
  const code = String(error.metadata?.get(ERROR_CODE_KEY)[0] ?? '');
  const param = error.metadata?.get(ERROR_PARAM_KEY)[0];
  if (isErrorCode(code)) {
    return new RpcError(code, error.code, {
      message: error.details,
      param: param === undefined ? undefined : String(param),
      cause: error,
    });
  }
  // No normalized code: the peer was unreachable, too slow or crashed. Never leak its text.
  return new RpcError(error.code === GrpcStatus.INTERNAL ? 'internal' : 'service_unavailable', error.code, {
    cause: error,
  });
}

/**
 * Creates a promise client for a generated service definition. Every call carries a deadline
 * (the default unless overridden) and the request id.
 *
 * @example
 * const payments = createRpcClient(PaymentsServiceService, 'localhost:50052', { deadlineMs: 5000 });
 * const { payment } = await payments.getPayment({ caller, payment_id }, { requestId });
 */
export function createRpcClient<D extends ServiceDefinition>(
  definition: D,
  address: string,
  defaults: { deadlineMs: number },
): RpcClient<D> {
  const Constructor = makeGenericClientConstructor(definition, 'orquestra');
  const client = new Constructor(address, credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.enable_retries': 0,
  }) as Client & Record<string, (...args: unknown[]) => unknown>;
  const rpc: Record<string, unknown> = {
    close: () => client.close(),
  };
  for (const key of Object.keys(definition)) {
    rpc[key] = (request: unknown, options: CallOptions = {}) =>
      new Promise((resolve, reject) => {
        const metadata = new Metadata();
        if (options.requestId) metadata.set(REQUEST_ID_KEY, options.requestId);
        const deadline = new Date(Date.now() + (options.deadlineMs ?? defaults.deadlineMs));
        const method = client[key];
        if (!method) {
          reject(new Error(`unknown rpc ${key}`));
          return;
        }
        method.call(client, request, metadata, { deadline }, (error: ServiceError | null, response: unknown) =>
          error ? reject(toRpcError(error)) : resolve(response),
        );
      });
  }
  return rpc as RpcClient<D>;
}
