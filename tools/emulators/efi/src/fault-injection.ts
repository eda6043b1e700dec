/** Efí's answers for injected faults (the shared kit does the injecting). */
import type { Request, RequestHandler } from 'express';
import { injectFaults as injectWith, type FaultRegistry } from '../../kit';
import { pixErrors } from './pix-errors';


export function injectFaults(registry: FaultRegistry, identify: (req: Request) => string | undefined): RequestHandler {
  return injectWith(registry, identify, {
    unavailable: () => pixErrors.servicoIndisponivel(),
    rateLimited: () => pixErrors.limiteRequisicoes(),
    internal: () => pixErrors.erroAplicacao(),
  });
}
