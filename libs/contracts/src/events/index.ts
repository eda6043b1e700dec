export * from './event-types';
export * from './provider-charge-updated';
export * from './provider-dispute-updated';
export * from './provider-recurrence-updated';
export * from './payment-attempt-recorded';
export * from './refund-events';
export * from './event-catalogue';
export * from './cache-signals';
