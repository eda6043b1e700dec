/**
 * Fault injection for any emulator's API port, per client or global: latency, 500s, 429s,
 * outages (socket destroyed, or 503) and hangs (never answered). Each emulator passes the error
 * bodies its provider really sends.
 */
import type { Socket } from 'node:net';
import type { Request, RequestHandler } from 'express';
import type { FaultRegistry } from './fault-registry';

export interface FaultAnswer {
  status: number;
  body: unknown;
}

/** The provider's own answers for injected failures. */
export interface FaultBodies {
  unavailable(): FaultAnswer;
  rateLimited(): FaultAnswer;
  internal(): FaultAnswer;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** For the server's `connection` event: drop the TCP connection during a global outage. */
export function refuseDuringOutage(faults: FaultRegistry): (socket: Socket) => void {
  return (socket) => {
    if (faults.globalOutage()) {
      faults.count();
      socket.destroy();
    }
  };
}

export function injectFaults(registry: FaultRegistry, identify: (req: Request) => string | undefined, bodies: FaultBodies): RequestHandler {
  return async (req, res, next) => {
    const faults = registry.for(identify(req));
    if (!faults) return next();
    const answer = (error: FaultAnswer) => {
      registry.count();
      res.status(error.status).json(error.body);
    };
    if (faults.outage) {
      if (faults.outage_mode === '503') return answer(bodies.unavailable());
      registry.count();
      req.socket.destroy();
      return;
    }
    if (faults.hang) {
      // Leave the request open; the emulator's stop() closes such connections.
      registry.count();
      return;
    }
    if (faults.latency_ms && faults.latency_ms > 0) await sleep(faults.latency_ms);
    if (faults.rate_limit_rate && Math.random() < faults.rate_limit_rate) {
      res.setHeader('Retry-After', '1');
      return answer(bodies.rateLimited());
    }
    if (faults.error_rate && Math.random() < faults.error_rate) return answer(bodies.internal());
    next();
  };
}
