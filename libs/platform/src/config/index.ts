export * from './load-config';
