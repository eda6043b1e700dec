import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { PAYMENT_STATUSES } from '@orquestra/contracts';
import { collectDefaultMetrics, Registry } from 'prom-client';

// The Grafana dashboards (k8s/orquestra/dashboards/*.json: the Helm chart's ConfigMaps and the
// docker-compose observability profile's provisioning) may only query metrics the code registers,
// with labels those metrics have: a renamed metric or label fails here, not as an empty panel.

const ROOT = path.resolve(__dirname, '../../..');
const DASHBOARDS = path.join(ROOT, 'k8s/orquestra/dashboards');
/** Labels Prometheus puts on every series: the scrape's own and the one our scrape configs add. */
const TARGET_LABELS = new Set(['orquestra_service', 'job', 'instance']);

interface Metric {
  type: 'counter' | 'gauge' | 'histogram' | 'summary';
  labels: Set<string>;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    if (entry === 'node_modules' || entry === 'dist' || entry === 'generated') return [];
    const file = path.join(dir, entry);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return file.endsWith('.ts') && !file.endsWith('.spec.ts') ? [file] : [];
  });
}

/** The orquestra_* metrics constructed with prom-client anywhere in libs/ and services/. */
function metricsInCode(): Map<string, Metric> {
  const found = new Map<string, Metric>();
  for (const file of [...sourceFiles(path.join(ROOT, 'libs')), ...sourceFiles(path.join(ROOT, 'services'))]) {
    const text = readFileSync(file, 'utf8');
    if (!text.includes("from 'prom-client'")) continue;
    for (const match of text.matchAll(/new (Counter|Gauge|Histogram|Summary)\b(?:<[^>]*>)?\(\{\s*name: '(orquestra_[a-z0-9_]+)'/g)) {
      const [, kind, name] = match as unknown as [string, string, string];
      // labelNames belong to this constructor when they come before the next one.
      const rest = text.slice((match.index ?? 0) + match[0].length);
      const end = rest.search(/new (Counter|Gauge|Histogram|Summary)\b/);
      const own = end === -1 ? rest : rest.slice(0, end);
      const labelNames = /labelNames: \[([^\]]*)\]/.exec(own)?.[1] ?? '';
      const labels = new Set([...labelNames.matchAll(/'([a-z_]+)'/g)].map((m) => m[1] as string));
      found.set(name, { type: kind.toLowerCase() as Metric['type'], labels });
    }
  }
  return found;
}

/** prom-client's default metrics (process_*, nodejs_*), which every service registers. */
async function defaultMetrics(): Promise<Map<string, Metric>> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const found = new Map<string, Metric>();
  for (const metric of await registry.getMetricsAsJSON()) {
    const labels = new Set<string>();
    for (const value of metric.values) for (const label of Object.keys(value.labels)) labels.add(label);
    found.set(metric.name, { type: metric.type as unknown as Metric['type'], labels });
  }
  registry.clear();
  return found;
}

/** Series names a metric exposes (a histogram's _bucket, _sum and _count). */
function seriesOf(metrics: Map<string, Metric>): Map<string, Metric & { base: string }> {
  const series = new Map<string, Metric & { base: string }>();
  for (const [name, metric] of metrics) {
    if (metric.type === 'histogram') {
      series.set(`${name}_bucket`, { ...metric, labels: new Set([...metric.labels, 'le']), base: name });
      series.set(`${name}_sum`, { ...metric, base: name });
      series.set(`${name}_count`, { ...metric, base: name });
    } else if (metric.type === 'summary') {
      series.set(name, { ...metric, labels: new Set([...metric.labels, 'quantile']), base: name });
      series.set(`${name}_sum`, { ...metric, base: name });
      series.set(`${name}_count`, { ...metric, base: name });
    } else {
      series.set(name, { ...metric, base: name });
    }
  }
  return series;
}

interface Query {
  where: string;
  expr: string;
}

/** Every PromQL expression of a dashboard: panel targets and the template variables' queries. */
function queriesOf(file: string, dashboard: Record<string, any>): Query[] {
  const queries: Query[] = [];
  for (const panel of dashboard.panels ?? []) {
    for (const target of panel.targets ?? []) queries.push({ where: `${file} "${panel.title}" ${target.refId}`, expr: target.expr });
  }
  for (const variable of dashboard.templating?.list ?? []) {
    if (variable.type !== 'query') continue;
    const text = typeof variable.query === 'string' ? variable.query : variable.query?.query;
    const labelValues = /^label_values\(([a-zA-Z_:][a-zA-Z0-9_:]*),\s*([a-zA-Z_][a-zA-Z0-9_]*)\)$/.exec(text ?? '');
    queries.push({ where: `${file} variable ${variable.name}`, expr: labelValues ? `${labelValues[1]}{${labelValues[2]}!=""}` : text });
  }
  return queries;
}

const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'offset', 'bool']);

/** What is wrong with one expression: unknown metrics, labels a metric does not have, unknown payment statuses. */
function problemsOf(query: Query, series: Map<string, Metric & { base: string }>): string[] {
  const problems: string[] = [];
  const { expr, where } = query;
  if (typeof expr !== 'string' || !expr.trim()) return [`${where}: no expression`];
  // Metric names: identifiers before a selector or a range, and any of our prefixes anywhere.
  const selectors = [...expr.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*\{([^}]*)\}/g)];
  const named = new Set<string>(selectors.map((m) => m[1] as string));
  for (const m of expr.matchAll(/\b((?:orquestra|process|nodejs)_[a-zA-Z0-9_:]*)/g)) named.add(m[1] as string);
  const metrics = [...named].filter((name) => !PROMQL_WORDS.has(name) && !TARGET_LABELS.has(name));
  if (metrics.length === 0) problems.push(`${where}: names no metric`);
  for (const name of metrics) if (!series.has(name)) problems.push(`${where}: metric ${name} is not registered in the code`);
  const known = (name: string) => series.get(name)?.labels ?? new Set<string>();
  for (const [, name, matchers] of selectors as unknown as Array<[string, string, string]>) {
    for (const [, label, , value] of matchers.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"([^"]*)"/g) as unknown as Array<[string, string, string, string]>) {
      if (!TARGET_LABELS.has(label) && !known(name).has(label)) problems.push(`${where}: ${name} has no label ${label}`);
      if (series.get(name)?.base === 'orquestra_payment_status_changes_total' && label === 'status' && !value.startsWith('$')) {
        for (const status of value.split('|')) {
          if (!(PAYMENT_STATUSES as readonly string[]).includes(status)) problems.push(`${where}: payment status ${status} does not exist`);
        }
      }
    }
  }
  // Grouping labels must exist on at least one metric of the expression.
  const groupable = new Set([...TARGET_LABELS, ...metrics.flatMap((name) => [...known(name)])]);
  for (const [, list] of expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g) as unknown as Array<[string, string]>) {
    for (const label of list.split(',').map((l) => l.trim()).filter(Boolean)) {
      if (!groupable.has(label)) problems.push(`${where}: groups by ${label}, a label none of its metrics has`);
    }
  }
  return problems;
}

describe('Grafana dashboards', () => {
  const files = readdirSync(DASHBOARDS).filter((f) => f.endsWith('.json'));
  let series: Map<string, Metric & { base: string }>;

  beforeAll(async () => {
    series = seriesOf(new Map([...metricsInCode(), ...(await defaultMetrics())]));
  });

  it('finds the metrics the code registers (the scan itself works)', () => {
    const inCode = metricsInCode();
    expect(inCode.get('orquestra_http_server_request_duration_seconds')).toEqual({ type: 'histogram', labels: new Set(['method', 'route', 'status_code']) });
    expect(inCode.get('orquestra_provider_breaker_state')).toEqual({ type: 'gauge', labels: new Set(['provider', 'account_id', 'state']) });
    expect(inCode.get('orquestra_outbox_oldest_event_age_seconds')).toEqual({ type: 'gauge', labels: new Set() });
    expect(inCode.size).toBeGreaterThanOrEqual(18);
  });

  it('refuses an unknown metric, an unknown label and an unknown payment status (the check can fail)', () => {
    const check = (expr: string) => problemsOf({ where: 'probe', expr }, series);
    expect(check('sum by (route) (rate(orquestra_http_server_request_duration_seconds_count[5m]))')).toEqual([]);
    expect(check('rate(orquestra_payments_total[5m])')).toEqual(['probe: metric orquestra_payments_total is not registered in the code']);
    expect(check('orquestra_provider_breaker_state{status="open"}')).toEqual(['probe: orquestra_provider_breaker_state has no label status']);
    expect(check('sum by (path) (rate(orquestra_http_server_request_duration_seconds_count[5m]))')).toEqual(['probe: groups by path, a label none of its metrics has']);
    expect(check('rate(orquestra_payment_status_changes_total{status=~"succeeded|expired"}[5m])')).toEqual(['probe: payment status expired does not exist']);
  });

  it.each(files)('%s queries only registered metrics, by labels they have', (file) => {
    const dashboard = JSON.parse(readFileSync(path.join(DASHBOARDS, file), 'utf8')) as Record<string, any>;
    const queries = queriesOf(file, dashboard);
    expect(queries.length).toBeGreaterThan(5);
    expect(queries.flatMap((query) => problemsOf(query, series))).toEqual([]);
  });

  it.each(files)('%s is a Grafana dashboard that fits its grid and uses the datasource variable', (file) => {
    const dashboard = JSON.parse(readFileSync(path.join(DASHBOARDS, file), 'utf8')) as Record<string, any>;
    expect(`${dashboard.uid}.json`).toBe(file);
    expect(dashboard.title).toMatch(/^Orquestra/);
    const panels = dashboard.panels as Array<Record<string, any>>;
    expect(new Set(panels.map((p) => p.id)).size).toBe(panels.length);
    for (const panel of panels) {
      expect(panel.gridPos.x + panel.gridPos.w).toBeLessThanOrEqual(24);
      if (panel.type !== 'row') {
        expect(panel.datasource).toEqual({ type: 'prometheus', uid: '${datasource}' });
        expect(panel.targets.length).toBeGreaterThan(0);
      }
    }
    expect(dashboard.templating.list.map((v: { name: string }) => v.name)).toEqual(['datasource', 'service']);
  });
});
