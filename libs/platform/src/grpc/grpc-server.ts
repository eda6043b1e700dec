import {
  Metadata,
  Server,
  ServerCredentials,
  status as GrpcStatus,
  type ServerUnaryCall,
  type ServiceDefinition,
  type sendUnaryData,
  type UntypedServiceImplementation,
} from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import type { Logger } from 'pino';
import { AppError, isAppError, MESSAGES_PT_BR } from '../errors';
import { newId } from '../ids';
import { isStoreUnavailableError } from '../mongo/connect';
import { ERROR_CODE_KEY, ERROR_PARAM_KEY, ERROR_RETRY_AFTER_KEY, REQUEST_ID_KEY, grpcStatusFor } from './status-map';

/** Retry-After of a call answered `service_unavailable` because the store was out of reach. */
const STORE_RETRY_AFTER_SECONDS = 1;

/** What a handler knows about the call besides its request. */
export interface CallContext {
  requestId: string;
  logger: Logger;
  /** Absolute deadline set by the caller, if any. */
  deadline: Date | undefined;
}

type RequestOf<M> = M extends { requestDeserialize: (bytes: Buffer) => infer Req } ? Req : never;
type ResponseOf<M> = M extends { responseSerialize: (value: infer Res) => Buffer } ? Res : never;

/** Async handlers keyed like the generated service definition. */
export type Handlers<D> = {
  [K in keyof D]: (request: RequestOf<D[K]>, context: CallContext) => Promise<ResponseOf<D[K]>>;
};

/**
 * A gRPC server with the standard `grpc.health.v1` service, typed async handlers and normalized
 * errors. Handlers throw AppError for expected failures; anything else is logged and answered as
 * `internal` without its message or stack.
 *
 * @example
 * const server = new GrpcServer(logger);
 * server.addService(PaymentsServiceService, { createPayment: async (req, ctx) => ({...}), ... });
 * await server.listen('0.0.0.0:50052');
 * server.setServing(true);
 */
export interface GrpcServerOptions {
  /**
   * Connections are closed (GOAWAY) after about this long (grpc-js adds ±10 % jitter), so clients
   * resolve the target again and spread over replicas started since; 0 keeps them forever.
   */
  maxConnectionAgeMs?: number;
  /** Calls running when a connection reaches its age get this long to finish. */
  maxConnectionAgeGraceMs?: number;
}

/**
 * Trailer that tells a retrying client not to repeat the call: the handler answered, so the
 * status is its verdict (even UNAVAILABLE, e.g. provider_unavailable), not a replica that failed.
 */
export const NO_RETRY_PUSHBACK = { key: 'grpc-retry-pushback-ms', value: '-1' } as const;

export class GrpcServer {
  private readonly server: Server;
  private readonly health = new HealthImplementation({ '': 'NOT_SERVING' });
  private readonly serviceNames: string[] = [];

  /** Observes every call's duration (method, normalized code); set by runService. */
  onCallEnd: ((method: string, code: string, seconds: number) => void) | undefined;

  constructor(
    private readonly logger: Logger,
    options: GrpcServerOptions = {},
  ) {
    this.server = new Server({
      'grpc.max_receive_message_length': 8 * 1024 * 1024,
      ...(options.maxConnectionAgeMs ? { 'grpc.max_connection_age_ms': options.maxConnectionAgeMs } : {}),
      ...(options.maxConnectionAgeMs && options.maxConnectionAgeGraceMs !== undefined
        ? { 'grpc.max_connection_age_grace_ms': options.maxConnectionAgeGraceMs }
        : {}),
    });
    this.health.addToServer(this.server);
  }

  addService<D extends ServiceDefinition>(definition: D, handlers: Handlers<D>, serviceName?: string): void {
    const implementation: UntypedServiceImplementation = {};
    for (const key of Object.keys(definition) as (keyof D & string)[]) {
      const handler = handlers[key];
      implementation[key] = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => {
        void this.invoke(key, handler as never, call, callback);
      };
    }
    this.server.addService(definition, implementation);
    if (serviceName) this.serviceNames.push(serviceName);
  }

  private async invoke(
    method: string,
    handler: (request: unknown, context: CallContext) => Promise<unknown>,
    call: ServerUnaryCall<unknown, unknown>,
    callback: sendUnaryData<unknown>,
  ): Promise<void> {
    const requestId = String(call.metadata.get(REQUEST_ID_KEY)[0] ?? newId('request'));
    const logger = this.logger.child({ request_id: requestId, rpc: method });
    const deadline = call.getDeadline();
    const started = process.hrtime.bigint();
    const observe = (code: string) => this.onCallEnd?.(method, code, Number(process.hrtime.bigint() - started) / 1e9);
    try {
      const response = await handler(call.request, {
        requestId,
        logger,
        deadline: deadline instanceof Date ? deadline : Number.isFinite(deadline) ? new Date(deadline) : undefined,
      });
      callback(null, response);
      observe('ok');
    } catch (error) {
      // A store out of reach is a temporary condition the caller may retry (503), not a bug.
      const storeDown = !isAppError(error) && isStoreUnavailableError(error);
      // A store restart or failover takes seconds: the caller is told to wait a little before repeating.
      const appError = isAppError(error) ? error : storeDown ? new AppError('service_unavailable', { cause: error, retryAfterSeconds: STORE_RETRY_AFTER_SECONDS }) : undefined;
      if (storeDown) logger.warn({ err: error }, 'the store is out of reach; answered service_unavailable');
      else if (!appError) logger.error({ err: error }, 'unhandled error in gRPC handler');
      const code = appError?.code ?? 'internal';
      const metadata = new Metadata();
      metadata.set(ERROR_CODE_KEY, code);
      if (appError?.param) metadata.set(ERROR_PARAM_KEY, appError.param);
      if (appError?.retryAfterSeconds !== undefined) metadata.set(ERROR_RETRY_AFTER_KEY, String(appError.retryAfterSeconds));
      metadata.set(NO_RETRY_PUSHBACK.key, NO_RETRY_PUSHBACK.value);
      callback({
        code: grpcStatusFor(code),
        // gRPC details travel as an HTTP/2 header: percent-encoding by grpc-js keeps accents intact.
        details: appError?.message ?? MESSAGES_PT_BR.internal,
        metadata,
      });
      observe(code);
    }
  }

  listen(address: string): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.bindAsync(address, ServerCredentials.createInsecure(), (error, port) =>
        error ? reject(error) : resolve(port),
      );
    });
  }

  /** Reports SERVING / NOT_SERVING for the whole server and every named service. */
  setServing(serving: boolean): void {
    const state = serving ? 'SERVING' : 'NOT_SERVING';
    this.health.setStatus('', state);
    for (const name of this.serviceNames) this.health.setStatus(name, state);
  }

  /** Stops accepting calls, lets running ones finish within graceMs, then forces the rest. */
  async shutdown(graceMs: number): Promise<void> {
    this.setServing(false);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, graceMs);
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
}

export { GrpcStatus, AppError };
