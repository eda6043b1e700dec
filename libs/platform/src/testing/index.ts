export * from './infra';
export * from './state-diagram';
export * from './teardown';
