// Shared parts of the provider emulators: fault registry and injection, logger, boleto lines, state file.
export * from './fault-registry';
export * from './fault-injection';
export * from './logger';
export * from './boleto-line';
export * from './state-file';
