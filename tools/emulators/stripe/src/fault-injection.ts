/** Stripe's answers for injected faults (the shared kit does the injecting). */
import type { Request, RequestHandler } from 'express';
import { injectFaults as injectWith, type FaultRegistry } from '../../kit';
import { stripeErrors } from './stripe-errors';


export function injectFaults(registry: FaultRegistry, identify: (req: Request) => string | undefined): RequestHandler {
  return injectWith(registry, identify, {
    unavailable: () => ({ status: 503, body: stripeErrors.unavailable().body }),
    rateLimited: () => ({ status: 429, body: stripeErrors.rateLimited().body }),
    internal: () => ({ status: 500, body: stripeErrors.internal().body }),
  });
}
