// Container health check for docker-compose.yml (Kubernetes uses its native gRPC and HTTP probes).
//   node tools/k8s/healthcheck.cjs grpc 127.0.0.1:50051            grpc.health.v1 Check("") is SERVING
//   node tools/k8s/healthcheck.cjs http http://127.0.0.1:8080/readyz  answers 2xx
// Exit status 0 = healthy. Only @grpc/grpc-js is needed (a production dependency of every image).
'use strict';

const [mode, target] = process.argv.slice(2);
const TIMEOUT_MS = 2_500;

function done(healthy, why) {
  if (!healthy) console.error(`unhealthy: ${why}`);
  process.exit(healthy ? 0 : 1);
}

setTimeout(() => done(false, 'no answer in time'), TIMEOUT_MS + 500);

if (mode === 'http' && target) {
  fetch(target, { signal: AbortSignal.timeout(TIMEOUT_MS) }).then(
    (response) => done(response.ok, `HTTP ${response.status}`),
    (error) => done(false, error.message),
  );
} else if (mode === 'grpc' && target) {
  const grpc = require('@grpc/grpc-js');
  const client = new grpc.Client(target, grpc.credentials.createInsecure());
  // HealthCheckRequest{service: ""} encodes to no bytes; HealthCheckResponse{status: SERVING = 1}
  // to field 1 varint 1 (0x08 0x01). Hand-encoded so the check needs no proto loading.
  client.makeUnaryRequest(
    '/grpc.health.v1.Health/Check',
    () => Buffer.alloc(0),
    (bytes) => bytes,
    null,
    new grpc.Metadata(),
    { deadline: Date.now() + TIMEOUT_MS },
    (error, response) => {
      client.close();
      if (error) return done(false, error.message);
      const serving = response.length >= 2 && response[0] === 0x08 && response[1] === 1;
      return done(serving, `status byte ${response[1] ?? 'UNKNOWN'}`);
    },
  );
} else {
  console.error('usage: node tools/k8s/healthcheck.cjs grpc <host:port> | http <url>');
  process.exit(2);
}
