import { otelEnvironment, withShared } from './launcher-env';

describe('the environment npm start gives the services', () => {
  it('passes every OTEL_* variable of the launcher and nothing else', () => {
    const launcher = {
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=local',
      PATH: '/usr/bin',
      AWS_SECRET_ACCESS_KEY: 'not for the services',
      MY_OTEL_THING: 'not a prefix match',
      otel_lowercase: 'x',
      OTEL_UNSET: undefined,
    };
    expect(otelEnvironment(launcher)).toEqual({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=local',
    });
    expect(otelEnvironment({ PATH: '/usr/bin' })).toEqual({});
  });

  it("puts the shared variables into every service's environment, the service's own values winning", () => {
    const env = { gateway: { HTTP_PORT: '3000', OTEL_SERVICE_NAME: 'gateway' }, payments: { GRPC_ADDRESS: '127.0.0.1:50051' } };
    const shared = otelEnvironment({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'launcher', HOME: '/root' });
    const result = withShared(env, ['gateway', 'payments', 'routing'], shared);
    expect(result['gateway']).toEqual({ HTTP_PORT: '3000', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'gateway' });
    expect(result['payments']).toEqual({ GRPC_ADDRESS: '127.0.0.1:50051', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'launcher' });
    expect(result['routing']).toEqual({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SERVICE_NAME: 'launcher' });
    // The input is not changed.
    expect(env.payments).toEqual({ GRPC_ADDRESS: '127.0.0.1:50051' });
  });
});
