// Shared parts of the provider emulators (see the TSDoc at the end of this file).
export * from './boleto-line';
export * from './br-code';
export * from './delivery-log';
export * from './emulator-host';
export * from './fault-injection';
export * from './fault-registry';
export * from './logger';
export * from './state-file';
export * from './webhook-outbox';
export * from './emulator-env';
export * from './emulator-main';
export * from './control-port';
export * from './timers';
