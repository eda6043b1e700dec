import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { SERVICES } from './start-stack';

// docker-compose.yml's "observability" profile, read as compose reads it (merge keys resolved; no
// Docker engine here): Prometheus scrapes every service's metrics port under the label the
// dashboards select by, Grafana provisions the Helm chart's dashboard files, and the services'
// OTLP endpoint can point at Jaeger.

const ROOT = path.resolve(__dirname, '../../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

interface ComposeService {
  image?: string;
  profiles?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  command?: string[] | string;
  depends_on?: Record<string, unknown>;
}

const compose = parse(read('docker-compose.yml'), { merge: true }) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
const services = compose.services;
const OBSERVABILITY = ['prometheus', 'grafana', 'jaeger'];

/** A bind mount's host path (relative to the compose file) and container path. */
function mount(service: ComposeService, containerPath: string): string | undefined {
  const entry = (service.volumes ?? []).find((volume) => volume.split(':')[1] === containerPath);
  return entry?.split(':')[0];
}

describe('docker-compose.yml observability profile', () => {
  it('adds Prometheus, Grafana and Jaeger only under the profile (a plain `up` starts what it did)', () => {
    for (const name of OBSERVABILITY) {
      expect(services[name]?.profiles).toEqual(['observability']);
      expect(services[name]?.image).toMatch(/^[a-z/-]+:v?\d+\.\d+\.\d+$/); // pinned
    }
    const profiled = Object.entries(services).filter(([, service]) => service.profiles).map(([name]) => name);
    expect(profiled.sort()).toEqual([...OBSERVABILITY].sort());
  });

  it('has Prometheus scrape every service on its METRICS_PORT, labelled orquestra_service', () => {
    const prometheus = services.prometheus as ComposeService;
    const configFile = mount(prometheus, '/etc/prometheus/prometheus.yml');
    expect(configFile).toBe('./tools/observability/prometheus.yml');
    expect(prometheus.command).toContain('--config.file=/etc/prometheus/prometheus.yml');
    const config = parse(read(configFile as string)) as {
      scrape_configs: Array<{ job_name: string; metrics_path?: string; static_configs: Array<{ targets: string[]; labels: Record<string, string> }> }>;
    };
    const scraped = config.scrape_configs.flatMap((job) => job.static_configs.flatMap((group) => group.targets.map((target) => [target, group.labels.orquestra_service])));
    // What compose gives each service: its METRICS_PORT, on the compose network under its name.
    const expected = SERVICES.map((name) => {
      const port = services[name]?.environment?.METRICS_PORT;
      expect(port).toMatch(/^\d+$/);
      return [`${name}:${port}`, name];
    });
    expect(scraped.sort()).toEqual(expected.sort());
    // Every compose service with a metrics port is one of the stack's services.
    const withMetrics = Object.entries(services).filter(([, service]) => service.environment?.METRICS_PORT).map(([name]) => name);
    expect(withMetrics.sort()).toEqual([...SERVICES].sort());
    expect(config.scrape_configs.every((job) => (job.metrics_path ?? '/metrics') === '/metrics')).toBe(true);
  });

  it("has Grafana provision the Prometheus data source and the Helm chart's dashboard files", () => {
    const grafana = services.grafana as ComposeService;
    expect(mount(grafana, '/var/lib/grafana/dashboards/orquestra')).toBe('./k8s/orquestra/dashboards');
    const provisioning = mount(grafana, '/etc/grafana/provisioning');
    expect(provisioning).toBe('./tools/observability/grafana/provisioning');
    const providers = parse(read(`${provisioning}/dashboards/orquestra.yml`)) as { providers: Array<{ type: string; options: { path: string } }> };
    expect(providers.providers).toEqual([expect.objectContaining({ type: 'file', options: expect.objectContaining({ path: '/var/lib/grafana/dashboards/orquestra' }) })]);
    const home = grafana.environment?.GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH ?? '';
    expect(existsSync(path.join(ROOT, 'k8s/orquestra/dashboards', path.basename(home)))).toBe(true);
    const datasources = parse(read(`${provisioning}/datasources/orquestra.yml`)) as { datasources: Array<{ type: string; url: string; isDefault?: boolean }> };
    const prometheusPort = (services.prometheus?.ports ?? [])[0]?.split(':')[1];
    expect(datasources.datasources).toContainEqual(expect.objectContaining({ type: 'prometheus', url: `http://prometheus:${prometheusPort}`, isDefault: true }));
    expect(datasources.datasources).toContainEqual(expect.objectContaining({ type: 'jaeger', url: 'http://jaeger:16686' }));
    expect(Object.keys(compose.volumes)).toEqual(expect.arrayContaining(['prometheus-data', 'grafana-data']));
  });

  it("lets every service export traces to Jaeger's OTLP/HTTP port, off unless OTEL_EXPORTER_OTLP_ENDPOINT is given", () => {
    const jaeger = services.jaeger as ComposeService;
    expect(jaeger.environment?.COLLECTOR_OTLP_ENABLED).toBe('true');
    expect(jaeger.ports).toEqual(expect.arrayContaining(['4318:4318', '4317:4317', '16686:16686']));
    for (const name of SERVICES) {
      expect({ name, ...services[name]?.environment }).toMatchObject({
        name,
        OTEL_EXPORTER_OTLP_ENDPOINT: '${OTEL_EXPORTER_OTLP_ENDPOINT:-}',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf',
      });
    }
    // The command the file's header gives points at Jaeger's OTLP/HTTP port.
    expect(read('docker-compose.yml')).toContain('OTEL_EXPORTER_OTLP_ENDPOINT=http://jaeger:4318 docker compose --profile observability up');
  });
});
