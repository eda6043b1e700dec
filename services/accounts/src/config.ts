import { baseConfigShape, loadConfig } from '@orquestra/platform';
import { z } from 'zod';

export const config = loadConfig({
  ...baseConfigShape,
  SERVICE_NAME: z.string().default('accounts'),
  GRPC_ADDRESS: z.string().default('0.0.0.0:50051'),
});

export type AccountsConfig = typeof config;
