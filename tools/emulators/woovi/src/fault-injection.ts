/** Woovi's answers for injected faults (the shared kit does the injecting). */
import type { Request, RequestHandler } from 'express';
import { injectFaults as injectWith, type FaultRegistry } from '../../kit';
import { wooviErrors } from './woovi-errors';


const answer = (error: { status: number; body: unknown }) => ({ status: error.status, body: error.body });

export function injectFaults(registry: FaultRegistry, identify: (req: Request) => string | undefined): RequestHandler {
  return injectWith(registry, identify, {
    unavailable: () => answer(wooviErrors.unavailable()),
    rateLimited: () => answer(wooviErrors.rateLimited()),
    internal: () => answer(wooviErrors.internal()),
  });
}
