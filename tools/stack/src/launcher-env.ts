/**
 * The OpenTelemetry settings `npm start` hands to the services it launches: every `OTEL_*` variable
 * of the launcher's own environment (OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_TRACES_EXPORTER,
 * OTEL_TRACES_SAMPLER, OTEL_RESOURCE_ATTRIBUTES, …), which the services' OpenTelemetry SDK reads.
 * A service is started with a clean environment, so without this they would be dropped.
 */
export function otelEnvironment(env: Record<string, string | undefined>): Record<string, string> {
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (name.startsWith('OTEL_') && value !== undefined) passed[name] = value;
  return passed;
}

/** Each service's environment with the shared variables under it: a service's own setting wins. */
export function withShared(env: Record<string, Record<string, string>>, services: readonly string[], shared: Record<string, string>): Record<string, Record<string, string>> {
  const result = { ...env };
  for (const name of services) result[name] = { ...shared, ...(env[name] ?? {}) };
  return result;
}
