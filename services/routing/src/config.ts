import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

export const config = loadConfig({
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('routing'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50053'),
  PROVIDERS_GRPC_ADDR: z.string().default('127.0.0.1:50054'),
});
