export * from './infra';
export * from './state-diagram';
export * from './teardown';
export * from './eventually';
export * from './envelopes';
