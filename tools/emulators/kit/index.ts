// Shared parts of the provider emulators: fault registry and injection, logger.
export * from './fault-registry';
export * from './fault-injection';
export * from './logger';
