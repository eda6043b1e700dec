export * from './status-map';
export * from './grpc-server';
export * from './grpc-client';
export * from './health-probe';
