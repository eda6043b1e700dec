export * from './error-codes';
export * from './messages.pt-br';
export * from './app-error';
export * from './assert-never';
