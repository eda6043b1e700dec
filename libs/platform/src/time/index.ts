export * from './sao-paulo';
