export * from './infra';
export * from './state-diagram';
