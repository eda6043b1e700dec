/** Mercado Pago's answers for injected faults (the shared kit does the injecting). */
import type { Request, RequestHandler } from 'express';
import { injectFaults as injectWith, type FaultRegistry } from '../../kit';
import { mpErrors } from './mp-errors';


export function injectFaults(registry: FaultRegistry, identify: (req: Request) => string | undefined): RequestHandler {
  return injectWith(registry, identify, {
    unavailable: () => ({ status: 503, body: mpErrors.unavailable().body }),
    rateLimited: () => ({ status: 429, body: mpErrors.tooManyRequests().body }),
    internal: () => ({ status: 500, body: mpErrors.internal().body }),
  });
}
