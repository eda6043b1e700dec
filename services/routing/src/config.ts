import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

export const config = loadConfig({
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('routing'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50053'),
  PROVIDERS_GRPC_ADDR: z.string().default('127.0.0.1:50054'),
  /** Recent attempts (5-minute window) needed before a collapsing success rate ranks an account last. */
  HEALTH_MIN_ATTEMPTS: z.coerce.number().int().min(1).default(10),
  /**
   * The longest a merchant's provider accounts and routing rules are served from routing's cache
   * without reading them again, should a change signal be lost (docs: docs/decisions.md "Caches").
   */
  LOOKUP_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
});
