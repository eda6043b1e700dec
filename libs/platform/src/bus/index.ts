export * from './event-envelope';
export * from './event-bus';
