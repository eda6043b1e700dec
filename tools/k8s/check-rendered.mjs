// Checks what `helm template` rendered from k8s/orquestra (run by tools/k8s/helm-check.sh):
//   node tools/k8s/check-rendered.mjs <default values render> <values-all-options render>
// helm lint only proves the YAML is well-formed; these checks hold the chart to what
// docs/deployment.md promises: hardened pods, probes on the right ports, one Deployment, Service,
// PodDisruptionBudget and NetworkPolicy per service, the documented caller graph, a headless
// Service per gRPC service that clients address as dns:/// (round_robin over its pods) with the
// servers' connection max age set, /metrics on its own port in every service (the gateway too),
// and each option of values-all-options.yaml taking effect.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** Every document of a multi-document YAML file, as plain objects (empty documents dropped). */
function loadAll(file) {
  const text = readFileSync(file, 'utf8');
  try {
    const YAML = require('yaml');
    return YAML.parseAllDocuments(text).map((doc) => doc.toJSON()).filter(Boolean);
  } catch (error) {
    if (error.code !== 'MODULE_NOT_FOUND') throw error;
    return require('js-yaml').loadAll(text).filter(Boolean);
  }
}

const SERVICES = ['gateway', 'accounts', 'payments', 'routing', 'providers', 'notifications', 'subscriptions', 'payouts', 'vault', 'tracking'];
const GRPC_PORTS = { accounts: 50051, payments: 50052, routing: 50053, providers: 50054, notifications: 50055, subscriptions: 50056, payouts: 50057, vault: 50058, tracking: 50059 };
// Who may open each service's API port (docs/deployment.md, "NetworkPolicy graph").
const CALLERS = {
  payments: ['gateway', 'subscriptions'],
  routing: ['payments'],
  providers: ['gateway', 'payments', 'routing', 'subscriptions', 'payouts'],
  accounts: ['gateway', 'payouts'],
  notifications: ['gateway'],
  subscriptions: ['gateway'],
  payouts: ['gateway', 'payments'],
  // Card data leaves the vault only to providers (RevealCard); the gateway saves and reads cards.
  vault: ['gateway', 'providers'],
  tracking: ['gateway'],
};
// The service-to-service addresses each service must get (variable → callee).
const ADDRESSES = {
  gateway: { ACCOUNTS_GRPC_ADDR: 'accounts', PAYMENTS_GRPC_ADDR: 'payments', PROVIDERS_GRPC_ADDR: 'providers', NOTIFICATIONS_GRPC_ADDR: 'notifications', SUBSCRIPTIONS_GRPC_ADDR: 'subscriptions', PAYOUTS_GRPC_ADDR: 'payouts', VAULT_GRPC_ADDR: 'vault', TRACKING_GRPC_ADDR: 'tracking' },
  payments: { ROUTING_GRPC_ADDR: 'routing', PROVIDERS_GRPC_ADDR: 'providers', PAYOUTS_GRPC_ADDR: 'payouts' },
  routing: { PROVIDERS_GRPC_ADDR: 'providers' },
  subscriptions: { PROVIDERS_GRPC_ADDR: 'providers', PAYMENTS_GRPC_ADDR: 'payments' },
  payouts: { PROVIDERS_GRPC_ADDR: 'providers', ACCOUNTS_GRPC_ADDR: 'accounts' },
  providers: { VAULT_GRPC_ADDR: 'vault' },
};
// Variables without a default in the services' config.ts (or whose default is wrong in a cluster).
const REQUIRED_ENV = {
  // The gateway's broker connection carries only cache signals (a revoked API key dropped at once).
  // OAUTH_COOKIE_KEYS: one list shared by every replica, or a consent crosses replicas and fails.
  gateway: ['HTTP_PORT', 'PUBLIC_BASE_URL', 'PAY_BASE_URL', 'NODE_ENV', 'AMQP_URL', 'EVENTS_EXCHANGE', 'OAUTH_COOKIE_KEYS'],
  accounts: ['MONGO_URL', 'AMQP_URL', 'GRPC_ADDRESS', 'METRICS_PORT', 'OWNER_SECRETS_KEYS'],
  payments: ['MONGO_URL', 'AMQP_URL', 'GRPC_ADDRESS', 'PUBLIC_BASE_URL', 'PAY_BASE_URL'],
  routing: ['MONGO_URL', 'AMQP_URL', 'GRPC_ADDRESS'],
  providers: ['MONGO_URL', 'AMQP_URL', 'GRPC_ADDRESS', 'CREDENTIALS_ENCRYPTION_KEYS', 'PUBLIC_WEBHOOK_BASE_URL'],
  notifications: ['MONGO_URL', 'AMQP_URL', 'GRPC_ADDRESS', 'WEBHOOK_SECRETS_ENCRYPTION_KEYS'],
  subscriptions: ['MONGO_URL', 'AMQP_URL', 'GRPC_ADDRESS'],
  payouts: ['MONGO_URL', 'AMQP_URL', 'GRPC_ADDRESS'],
  vault: ['MONGO_URL', 'AMQP_URL', 'GRPC_ADDRESS', 'CARD_ENCRYPTION_KEYS', 'FINGERPRINT_KEY'],
  tracking: ['MONGO_URL', 'AMQP_URL', 'GRPC_ADDRESS', 'INTEGRATION_CREDENTIALS_KEYS'],
};

const problems = [];
const check = (ok, message) => {
  if (!ok) problems.push(message);
};

const component = (object) => object?.metadata?.labels?.['app.kubernetes.io/component'];
const ofKind = (objects, kind) => objects.filter((o) => o.kind === kind);
const byComponent = (objects, kind) => new Map(ofKind(objects, kind).map((o) => [component(o), o]));
// A Service published outside the cluster (LoadBalancer, NodePort) leaves its metrics port to a
// ClusterIP Service of its own, <name>-metrics.
const isMetricsOnly = (o) => o.kind === 'Service' && o.metadata.name.endsWith('-metrics');
// A gRPC service's headless Service (clusterIP None): the name its clients resolve to every pod.
const isHeadless = (o) => o.kind === 'Service' && o.spec?.clusterIP === 'None';
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/**
 * Checks every render shares; `metrics` says what this render's values ask of /metrics:
 *   port            metrics.port, or 0 when metrics.enabled is false
 *   from            networkPolicy.metricsFrom (the peers of every metrics ingress rule)
 *   annotations     metrics.podAnnotations
 *   serviceMonitor  metrics.serviceMonitor.enabled (rendered with the monitoring.coreos.com/v1 API)
 */
function checkCommon(label, objects, metrics) {
  const deployments = byComponent(objects, 'Deployment');
  const services = byComponent(objects.filter((o) => !isMetricsOnly(o) && !isHeadless(o)), 'Service');
  const metricsServices = byComponent(objects.filter(isMetricsOnly), 'Service');
  const headlessServices = byComponent(objects.filter(isHeadless), 'Service');
  const monitors = byComponent(objects, 'ServiceMonitor');
  const policies = byComponent(objects, 'NetworkPolicy');
  const serviceAccounts = ofKind(objects, 'ServiceAccount');
  check(serviceAccounts.length === 1 && serviceAccounts[0].automountServiceAccountToken === false, `${label}: one ServiceAccount with automountServiceAccountToken: false`);

  for (const name of SERVICES) {
    const where = `${label}/${name}`;
    const deployment = deployments.get(name);
    const service = services.get(name);
    check(deployment, `${where}: no Deployment`);
    check(service, `${where}: no Service`);
    check(policies.get(name), `${where}: no NetworkPolicy`);
    if (!deployment || !service) continue;

    const pod = deployment.spec.template.spec;
    const [container, ...others] = pod.containers;
    check(others.length === 0, `${where}: one container per pod`);
    const psc = pod.securityContext ?? {};
    check(psc.runAsNonRoot === true && psc.runAsUser === 10001 && psc.fsGroup === 10001, `${where}: pod runs as non-root 10001 with fsGroup`);
    check(psc.seccompProfile?.type === 'RuntimeDefault', `${where}: pod seccompProfile RuntimeDefault`);
    check(pod.automountServiceAccountToken === false, `${where}: no service-account token mounted`);
    const csc = container.securityContext ?? {};
    check(csc.readOnlyRootFilesystem === true, `${where}: readOnlyRootFilesystem`);
    check(csc.allowPrivilegeEscalation === false, `${where}: allowPrivilegeEscalation false`);
    check(csc.capabilities?.drop?.includes('ALL'), `${where}: capabilities drop ALL`);
    const tmp = container.volumeMounts?.find((m) => m.mountPath === '/tmp');
    check(tmp && pod.volumes?.find((v) => v.name === tmp.name)?.emptyDir, `${where}: emptyDir at /tmp`);
    check(deployment.spec.template.metadata.annotations?.['checksum/secret'], `${where}: checksum/secret annotation`);

    const env = new Map((container.env ?? []).map((e) => [e.name, e]));
    const names = (container.env ?? []).map((e) => e.name);
    check(new Set(names).size === names.length, `${where}: duplicate env names ${names.filter((n, i) => names.indexOf(n) !== i)}`);
    for (const variable of REQUIRED_ENV[name]) check(env.has(variable), `${where}: ${variable} not set`);
    check(env.get('OTEL_SERVICE_NAME')?.value === name, `${where}: OTEL_SERVICE_NAME=${name}`);
    if (name === 'gateway') {
      check(!env.has('MONGO_URL') && !env.has('CREDENTIALS_ENCRYPTION_KEYS') && !env.has('CARD_ENCRYPTION_KEYS'), `${where}: the gateway gets no database or key secrets`);
    } else if (name !== 'providers') {
      check(!env.has('CREDENTIALS_ENCRYPTION_KEYS'), `${where}: only providers gets CREDENTIALS_ENCRYPTION_KEYS`);
    }
    if (name !== 'vault') check(!env.has('CARD_ENCRYPTION_KEYS') && !env.has('FINGERPRINT_KEY'), `${where}: only the vault gets the card keys`);
    if (name !== 'tracking') check(!env.has('INTEGRATION_CREDENTIALS_KEYS'), `${where}: only tracking gets INTEGRATION_CREDENTIALS_KEYS`);
    for (const secretVar of ['MONGO_URL', 'AMQP_URL', 'CREDENTIALS_ENCRYPTION_KEYS', 'WEBHOOK_SECRETS_ENCRYPTION_KEYS', 'CARD_ENCRYPTION_KEYS', 'FINGERPRINT_KEY', 'INTEGRATION_CREDENTIALS_KEYS', 'OAUTH_COOKIE_KEYS']) {
      if (env.has(secretVar)) check(env.get(secretVar).valueFrom?.secretKeyRef, `${where}: ${secretVar} comes from a Secret`);
    }

    // Probes: gRPC health on the gRPC port, or the gateway's /healthz and /readyz.
    const port = (portName) => container.ports.find((p) => p.name === portName)?.containerPort;
    if (name === 'gateway') {
      check(container.livenessProbe?.httpGet?.path === '/healthz', `${where}: liveness GET /healthz`);
      check(container.readinessProbe?.httpGet?.path === '/readyz', `${where}: readiness GET /readyz`);
      check(port('http') === Number(env.get('HTTP_PORT')?.value), `${where}: container port = HTTP_PORT`);
    } else {
      check(port('grpc') === GRPC_PORTS[name], `${where}: gRPC container port ${GRPC_PORTS[name]}`);
      check(env.get('GRPC_ADDRESS')?.value === `0.0.0.0:${GRPC_PORTS[name]}`, `${where}: GRPC_ADDRESS listens on the container port`);
      for (const probe of ['startupProbe', 'livenessProbe', 'readinessProbe']) {
        check(container[probe]?.grpc?.port === GRPC_PORTS[name], `${where}: ${probe} is a native gRPC probe on ${GRPC_PORTS[name]}`);
      }
      // Client-side balancing: a headless Service over the pods' gRPC port, and connections that age.
      const headless = headlessServices.get(name);
      check(headless, `${where}: no headless Service`);
      check(headless?.metadata.name.length <= 63 && headless?.metadata.name.endsWith('-headless'), `${where}: headless Service name ${headless?.metadata.name}`);
      check(same(headless?.spec.ports?.map((p) => [p.name, p.port, p.targetPort]), [['grpc', GRPC_PORTS[name], 'grpc']]), `${where}: headless Service port grpc ${GRPC_PORTS[name]} → container port grpc`);
      check(!headless?.spec.publishNotReadyAddresses, `${where}: headless Service publishes pods that are not ready`);
      check(Object.entries(headless?.spec.selector ?? { none: '' }).every(([k, v]) => deployment.spec.template.metadata.labels[k] === v), `${where}: headless Service selector does not match the pods`);
      check(Number(env.get('GRPC_MAX_CONNECTION_AGE_MS')?.value) > 0, `${where}: GRPC_MAX_CONNECTION_AGE_MS not set`);
      check(env.get('GRPC_MAX_CONNECTION_AGE_GRACE_MS')?.value !== undefined, `${where}: GRPC_MAX_CONNECTION_AGE_GRACE_MS not set`);
    }

    // /metrics, the same in every service (the gateway included): METRICS_PORT from metrics.port, a
    // container port and a Service port named "metrics" (never the API port), the prometheus.io
    // annotations, an ingress rule admitting networkPolicy.metricsFrom to it, its ServiceMonitor.
    const annotations = deployment.spec.template.metadata.annotations ?? {};
    const policy = policies.get(name);
    const metricsRules = (policy?.spec.ingress ?? []).filter((r) => r.ports?.some((p) => p.port === 'metrics'));
    const apiPort = name === 'gateway' ? 'http' : 'grpc';
    check(env.get('METRICS_PORT')?.value === String(metrics.port), `${where}: METRICS_PORT=${env.get('METRICS_PORT')?.value}, expected ${metrics.port}`);
    check(!env.get('METRICS_PORT') || env.get('METRICS_PORT').value === '0' || Number(env.get('METRICS_PORT').value) !== port(apiPort), `${where}: /metrics on the API port`);
    const exposed = service.spec.type === 'ClusterIP' || service.spec.type === undefined ? service : metricsServices.get(name);
    const servicePort = exposed?.spec.ports.find((p) => p.name === 'metrics');
    if (metrics.port > 0) {
      check(port('metrics') === metrics.port, `${where}: metrics container port ${metrics.port}`);
      check(servicePort?.port === metrics.port && servicePort.targetPort === 'metrics', `${where}: Service port "metrics" ${metrics.port} → container port metrics`);
      check(exposed?.spec.type === undefined || exposed.spec.type === 'ClusterIP', `${where}: metrics port only on a ClusterIP Service`);
      check(Object.entries(exposed?.spec.selector ?? {}).every(([k, v]) => deployment.spec.template.metadata.labels[k] === v), `${where}: metrics Service selector does not match the pods`);
      if (metrics.annotations) {
        check(annotations['prometheus.io/scrape'] === 'true', `${where}: prometheus.io/scrape "true"`);
        check(annotations['prometheus.io/port'] === String(metrics.port), `${where}: prometheus.io/port ${annotations['prometheus.io/port']}, expected ${metrics.port}`);
        check(annotations['prometheus.io/path'] === '/metrics', `${where}: prometheus.io/path /metrics`);
      } else {
        check(!Object.keys(annotations).some((k) => k.startsWith('prometheus.io/')), `${where}: prometheus.io annotations with metrics.podAnnotations off`);
      }
      if (policy) {
        check(metricsRules.length === 1, `${where}: one NetworkPolicy ingress rule for the metrics port`);
        const [rule] = metricsRules;
        check(rule?.ports.length === 1, `${where}: the metrics ingress rule opens other ports too`);
        check(same(rule?.from ?? [], metrics.from), `${where}: metrics port admits ${JSON.stringify(rule?.from ?? 'any source')}, expected networkPolicy.metricsFrom ${JSON.stringify(metrics.from)}`);
      }
      const monitor = monitors.get(name);
      if (metrics.serviceMonitor) {
        check(monitor?.apiVersion === 'monitoring.coreos.com/v1', `${where}: no ServiceMonitor`);
        check(same(monitor?.spec.endpoints.map((e) => [e.port, e.path]), [['metrics', '/metrics']]), `${where}: ServiceMonitor scrapes port "metrics" at /metrics`);
        const selects = Object.entries(monitor?.spec.selector.matchLabels ?? { none: '' }).every(([k, v]) => exposed?.metadata.labels[k] === v);
        check(selects, `${where}: ServiceMonitor does not select the Service carrying the metrics port`);
        // The Grafana dashboards select services by orquestra_service (k8s/orquestra/dashboards).
        const relabel = monitor?.spec.endpoints[0]?.relabelings?.find((r) => r.targetLabel === 'orquestra_service');
        check(relabel?.action === 'replace' && relabel.replacement === name, `${where}: ServiceMonitor sets orquestra_service="${name}"`);
      } else {
        check(!monitor, `${where}: ServiceMonitor with metrics.serviceMonitor.enabled off`);
      }
    } else {
      check(!port('metrics') && !servicePort && !metricsServices.get(name), `${where}: metrics port with metrics off`);
      check(!Object.keys(annotations).some((k) => k.startsWith('prometheus.io/')), `${where}: prometheus.io annotations with metrics off`);
      check(metricsRules.length === 0 && !monitors.get(name), `${where}: metrics ingress rule or ServiceMonitor with metrics off`);
    }

    // Service-to-service addresses: dns:/// over the callee's headless Service at its pods' gRPC
    // port (grpc-js then balances round_robin over every pod the name resolves to).
    for (const [variable, callee] of Object.entries(ADDRESSES[name] ?? {})) {
      const target = headlessServices.get(callee);
      const value = env.get(variable)?.value ?? '';
      const [, host, addrPort] = /^dns:\/\/\/([^:]+):(\d+)$/.exec(value) ?? [];
      const namespace = target?.metadata.namespace;
      check(host !== undefined, `${where}: ${variable}=${value} is not a dns:/// target`);
      check(target && host === `${target.metadata.name}.${namespace}.svc.cluster.local`, `${where}: ${variable}=${value} is not ${callee}'s headless Service`);
      check(target && Number(addrPort) === GRPC_PORTS[callee], `${where}: ${variable} port is not ${callee}'s gRPC container port`);
    }
    // The Service selects exactly this Deployment's pods and targets a named container port.
    const selector = service.spec.selector;
    const podLabels = deployment.spec.template.metadata.labels;
    check(Object.entries(selector).every(([k, v]) => podLabels[k] === v), `${where}: Service selector does not match the pods`);
    for (const p of service.spec.ports) check(container.ports.some((c) => c.name === p.targetPort), `${where}: Service port ${p.name} targets a missing container port`);
  }
  // The gateway's public HTTP port: its own rule, open to networkPolicy.gatewayFrom, and nothing else.
  const gatewayHttp = (policies.get('gateway')?.spec.ingress ?? []).filter((r) => r.ports?.some((p) => p.port === 'http'));
  check(gatewayHttp.length === 1 && same(gatewayHttp[0].ports, [{ port: 'http', protocol: 'TCP' }]), `${label}/gateway: the HTTP port has one ingress rule of its own`);
  check(same(gatewayHttp[0]?.from, metrics.gatewayFrom), `${label}/gateway: HTTP port admits ${JSON.stringify(gatewayHttp[0]?.from ?? 'any source')}, expected networkPolicy.gatewayFrom`);

  // NetworkPolicy graph: exactly the documented callers reach each gRPC port.
  for (const [name, callers] of Object.entries(CALLERS)) {
    const policy = policies.get(name);
    if (!policy) continue;
    const rule = policy.spec.ingress.find((r) => r.ports?.some((p) => p.port === 'grpc'));
    const allowed = (rule?.from ?? []).map((peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/component']).sort();
    check(JSON.stringify(allowed) === JSON.stringify([...callers].sort()), `${label}/${name}: gRPC callers are [${allowed}], expected [${callers}]`);
    check((rule?.from ?? []).every((peer) => peer.podSelector && !peer.namespaceSelector && !peer.ipBlock), `${label}/${name}: gRPC port open beyond the release's pods`);
  }
  // Each caller may reach its callees (egress) when egress rules are on.
  for (const [name, callers] of Object.entries(CALLERS)) {
    for (const caller of callers) {
      const policy = policies.get(caller);
      if (!policy?.spec.policyTypes.includes('Egress')) continue;
      const reaches = policy.spec.egress.some(
        (r) => r.ports?.some((p) => p.port === GRPC_PORTS[name]) && r.to?.some((peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/component'] === name),
      );
      check(reaches, `${label}/${caller}: egress to ${name}:${GRPC_PORTS[name]} missing`);
    }
  }
  return { deployments, services, metricsServices, policies };
}

const [defaultFile, allFile, metricsOffFile, publishedFile] = process.argv.slice(2);
if (!defaultFile || !allFile || !metricsOffFile || !publishedFile) {
  console.error('usage: node tools/k8s/check-rendered.mjs <default.yaml> <all-options.yaml> <metrics-off.yaml> <gateway-loadbalancer.yaml>');
  process.exit(2);
}
const anyNamespace = [{ namespaceSelector: {} }];
const defaultMetrics = { port: 9464, from: anyNamespace, annotations: true, serviceMonitor: false, gatewayFrom: undefined };

// Default values: replicas set, no HPA or Ingress, the chart's own Secret, PDBs everywhere.
const defaults = loadAll(defaultFile);
const d = checkCommon('default', defaults, defaultMetrics);
check(ofKind(defaults, 'HorizontalPodAutoscaler').length === 0, 'default: no HPA');
check(ofKind(defaults, 'Ingress').length === 0, 'default: no Ingress');
check(ofKind(defaults, 'PodDisruptionBudget').length === SERVICES.length, 'default: one PodDisruptionBudget per service');
const secret = ofKind(defaults, 'Secret')[0];
check(secret, 'default: the chart creates its Secret');
for (const deployment of d.deployments.values()) check(typeof deployment.spec.replicas === 'number', `default/${component(deployment)}: replicas set`);
const gatewayPolicy = d.policies.get('gateway');
check(gatewayPolicy?.spec.ingress.some((r) => r.ports?.some((p) => p.port === 'http') && !r.from), 'default: gateway HTTP port open to any source');

// Every option on.
const all = loadAll(allFile);
const a = checkCommon('all-options', all, {
  port: 9400,
  from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }],
  annotations: false,
  serviceMonitor: true,
  gatewayFrom: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'ingress-nginx' } } }],
});
const hpas = byComponent(all, 'HorizontalPodAutoscaler');
for (const name of SERVICES) {
  const hpa = hpas.get(name);
  check(hpa?.apiVersion === 'autoscaling/v2' && hpa.spec.scaleTargetRef.name === a.deployments.get(name)?.metadata.name, `all-options/${name}: autoscaling/v2 HPA on its Deployment`);
  check(a.deployments.get(name)?.spec.replicas === undefined, `all-options/${name}: no replicas when the HPA owns them`);
}
check(ofKind(all, 'Secret').length === 0, 'all-options: no Secret with existingSecret');
for (const deployment of a.deployments.values()) {
  const env = deployment.spec.template.spec.containers[0].env;
  for (const e of env.filter((x) => x.valueFrom?.secretKeyRef)) {
    check(e.valueFrom.secretKeyRef.name === 'orquestra-runtime' && e.valueFrom.secretKeyRef.key === e.name, `all-options/${component(deployment)}: ${e.name} from existingSecret`);
  }
  check(env.some((e) => e.name === 'OTEL_EXPORTER_OTLP_ENDPOINT'), `all-options/${component(deployment)}: OTEL_* passed through`);
}
const ingresses = ofKind(all, 'Ingress');
check(ingresses.length === 2, 'all-options: API and webhook Ingresses');
check(ingresses.some((i) => i.spec.rules.some((r) => r.http.paths.some((p) => p.path === '/webhooks/providers'))), 'all-options: webhook Ingress path');
check(ofKind(all, 'ServiceMonitor').length === SERVICES.length, 'all-options: a ServiceMonitor per service');
check(ofKind(all, 'PodDisruptionBudget').length === SERVICES.length - 1, 'all-options: routing PDB disabled');
check(byComponent(all, 'PodDisruptionBudget').get('gateway')?.spec.minAvailable === 2, 'all-options: gateway PDB minAvailable');
const providers = a.deployments.get('providers')?.spec.template.spec;
const providersEnv = new Map(providers?.containers[0].env.map((e) => [e.name, e.value]));
check(providersEnv.get('PROVIDER_EXTRA_CA_FILE') && providers.volumes.some((v) => v.configMap), 'all-options: providers extra CA mounted');
check(JSON.parse(providersEnv.get('PROVIDER_ENDPOINTS') ?? '{}').efi?.live, 'all-options: PROVIDER_ENDPOINTS rendered as JSON');
check(JSON.parse(providersEnv.get('PROVIDER_SETTINGS') ?? '{}').woovi?.webhook_public_key?.includes('BEGIN PUBLIC KEY'), 'all-options: PROVIDER_SETTINGS rendered as JSON');
check(a.deployments.get('payments')?.spec.template.spec.containers[0].image.includes('@sha256:'), 'all-options: image digest');

// The Grafana dashboards: one ConfigMap per k8s/orquestra/dashboards/*.json with metrics on,
// labelled for the Grafana sidecar, its JSON intact; none with metrics off.
const dashboardsOf = (objects) => ofKind(objects, 'ConfigMap').filter((c) => Object.keys(c.data ?? {}).some((k) => k.endsWith('.json')));
for (const [label, objects] of [['defaults', defaults], ['all-options', all]]) {
  const maps = dashboardsOf(objects);
  check(maps.length === 2, `${label}: a dashboard ConfigMap per dashboards/*.json (got ${maps.length})`);
  for (const map of maps) {
    check(map.metadata.labels?.grafana_dashboard === '1', `${label}/${map.metadata.name}: label grafana_dashboard "1"`);
    for (const [file, text] of Object.entries(map.data)) {
      let uid;
      try {
        uid = JSON.parse(text).uid;
      } catch {
        uid = undefined;
      }
      check(typeof uid === 'string' && file === `${uid}.json`, `${label}/${map.metadata.name}: ${file} is a dashboard whose uid names the file`);
    }
  }
}

// metrics.enabled=false: METRICS_PORT=0 everywhere (the services' default would open 9464), no
// metrics port, annotation, ingress rule or ServiceMonitor (checkCommon).
const metricsOff = loadAll(metricsOffFile);
checkCommon('metrics-off', metricsOff, { ...defaultMetrics, port: 0, serviceMonitor: true });
check(dashboardsOf(metricsOff).length === 0, 'metrics-off: no dashboard ConfigMaps');

// gateway.service.type=LoadBalancer (with ServiceMonitors): the published Service carries the HTTP
// port only; the metrics port sits on <gateway>-metrics, a ClusterIP Service the monitor selects.
const published = loadAll(publishedFile);
const p = checkCommon('gateway-loadbalancer', published, { ...defaultMetrics, serviceMonitor: true });
const publishedGateway = p.services.get('gateway');
check(publishedGateway?.spec.type === 'LoadBalancer' && same(publishedGateway.spec.ports.map((x) => x.name), ['http']), 'gateway-loadbalancer: the LoadBalancer Service publishes the HTTP port only');
check(p.metricsServices.get('gateway')?.metadata.name === `${publishedGateway?.metadata.name}-metrics`, 'gateway-loadbalancer: <gateway>-metrics Service');
check(p.metricsServices.size === 1, 'gateway-loadbalancer: a -metrics Service only for the published gateway');

if (problems.length > 0) {
  console.error(`[helm-check] ${problems.length} problem(s) in the rendered chart:\n  ${problems.join('\n  ')}`);
  process.exit(1);
}
console.error(`[helm-check] rendered manifests OK (${defaults.length} objects with default values, ${all.length} with every option)`);
