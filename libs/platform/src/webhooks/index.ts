// A dependency-free entry point (`@orquestra/platform/webhooks`): receivers and the SDK import it
// without pulling in the services' runtime (mongoose, amqplib, gRPC).
export * from './webhook-signature';
