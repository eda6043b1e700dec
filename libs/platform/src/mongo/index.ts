export * from './connect';
