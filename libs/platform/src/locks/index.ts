export * from './lock-manager';
