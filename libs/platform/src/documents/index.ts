export * from './tax-id';
