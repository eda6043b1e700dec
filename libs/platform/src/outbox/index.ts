export * from './outbox';
export * from './outbox.schema';
