export * from './event-types';
export * from './provider-charge-updated';
