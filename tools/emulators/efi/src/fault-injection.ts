/**
 * Fault injection on the API port, per client or global: latency, 500s, 429s, outages (socket
 * destroyed, or 503) and hangs (never answered). A global reset-style outage refuses connections
 * before the TLS handshake, so callers see it as a connection failure, not as an HTTP answer.
 */
import type { Socket } from 'node:net';
import type { Request, RequestHandler } from 'express';
import type { FaultRegistry } from './fault-registry';
import { pixErrors, type EfiApiError } from './pix-errors';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** For the TLS server's `connection` event: drop the TCP connection during a global outage. */
export function refuseDuringOutage(faults: FaultRegistry): (socket: Socket) => void {
  return (socket) => {
    if (faults.globalOutage()) {
      faults.count();
      socket.destroy();
    }
  };
}

export function injectFaults(registry: FaultRegistry, identify: (req: Request) => string | undefined): RequestHandler {
  return async (req, res, next) => {
    const faults = registry.for(identify(req));
    if (!faults) return next();
    const answer = (error: EfiApiError) => {
      registry.count();
      res.status(error.status).json(error.body);
    };
    if (faults.outage) {
      if (faults.outage_mode === '503') return answer(pixErrors.servicoIndisponivel());
      registry.count();
      req.socket.destroy();
      return;
    }
    if (faults.hang) {
      // Leave the request open; stop() closes such connections.
      registry.count();
      return;
    }
    if (faults.latency_ms && faults.latency_ms > 0) await sleep(faults.latency_ms);
    if (faults.rate_limit_rate && Math.random() < faults.rate_limit_rate) {
      res.setHeader('Retry-After', '1');
      return answer(pixErrors.limiteRequisicoes());
    }
    if (faults.error_rate && Math.random() < faults.error_rate) return answer(pixErrors.erroAplicacao());
    next();
  };
}
