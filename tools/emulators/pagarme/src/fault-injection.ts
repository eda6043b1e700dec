/** Pagar.me's answers for injected faults (the shared kit does the injecting). */
import type { Request, RequestHandler } from 'express';
import { injectFaults as injectWith, type FaultRegistry } from '../../kit';
import { pagarmeErrors } from './pagarme-errors';


const answer = (error: ReturnType<(typeof pagarmeErrors)['internal']>) => ({ status: error.status, body: error.body });

export function injectFaults(registry: FaultRegistry, identify: (req: Request) => string | undefined): RequestHandler {
  return injectWith(registry, identify, {
    unavailable: () => answer(pagarmeErrors.unavailable()),
    rateLimited: () => answer(pagarmeErrors.tooManyRequests()),
    internal: () => answer(pagarmeErrors.internal()),
  });
}
