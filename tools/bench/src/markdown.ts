/** A run as a markdown section, ready to paste into docs/performance.md. */
import type { BenchReport } from './report';
import {
  analyticsRebuildLine,
  analyticsTable,
  busMessagesTable,
  cpuCostTable,
  cpuLimitLine,
  distributionTable,
  goalLine,
  listSeedLine,
  listTable,
  loadTable,
  methodTable,
  overheadLine,
  peakRssLine,
  resourceTable,
  storeCommandsTable,
  targetsTable,
  throttlingTable,
  webhookTable,
  type Table,
} from './tables';

const cell = (text: string) => text.replace(/\|/g, '\\|');

function markdown({ header, rows }: Table): string {
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), line(header.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(line)].join('\n');
}

export function markdownSection(report: BenchReport): string {
  const { options, machine } = report;
  const parts = [
    `### Run ${report.runId} (${report.startedAt})`,
    '',
    `${machine.cores} cores (${machine.cpuModel}), ${machine.memTotalGiB} GiB RAM, Linux ${machine.kernel}, node ${machine.node}. ` +
      `Store: ${machine.store}. RabbitMQ ${machine.rabbitmq}. ` +
      `Connections ${options.connections.join(' and ')}, ${options.durationS} s per run, ${options.warmupS} s warm-up before the first run, replicas ${options.replicas || 'one of each service'}.` +
      (cpuLimitLine(report) ? ` ${cpuLimitLine(report)}.` : ''),
    '',
    markdown(targetsTable(report.targets)),
    '',
    markdown(loadTable(report.phases)),
    '',
    markdown(distributionTable(report.phases)),
  ];
  for (const line of [goalLine(report), overheadLine(report)]) if (line) parts.push('', `**${line}**`);
  const webhooks = webhookTable(report.phases);
  if (webhooks) parts.push('', 'Event → webhook latency (POST /v1/payments answered → its `payment.created` webhook arrived; goal p99 ≤ 500 ms):', '', markdown(webhooks));
  parts.push('', 'Cost per payment, from the start of each run until the stack was idle again (CPU ms per payment):', '', markdown(cpuCostTable(report.phases)));
  const throttling = throttlingTable(report);
  if (throttling) parts.push('', 'CPU throttling per replica cgroup (`cpu.stat`, from the start of each run until the stack was idle; CPU % of limit over the measured load):', '', markdown(throttling));
  parts.push('', 'Store commands per payment (`orquestra_store_commands_total`):', '', markdown(storeCommandsTable(report.phases)));
  parts.push('', 'Broker messages per payment (`orquestra_bus_messages_total`, published / consumed):', '', markdown(busMessagesTable(report.phases)));
  const lists = listTable(report.lists);
  if (lists) parts.push('', `\`GET /v1/payments\` one request at a time, ${options.listRequests} per query (${listSeedLine(report.lists)}):`, '', markdown(lists));
  const analytics = analyticsTable(report.lists);
  if (analytics) {
    parts.push('', `\`GET /v1/analytics/overview\` one request at a time, ${options.analyticsRequests} per query (${analyticsRebuildLine(report.lists)}):`, '', markdown(analytics));
  }
  parts.push('', 'Mean ms per call inside each service (calls in brackets):', '', markdown(methodTable(report.phases)));
  parts.push('', markdown(resourceTable(report)), '', peakRssLine(report));
  const failed = report.checks.filter((c) => !c.ok);
  parts.push('', failed.length === 0 ? `All ${report.checks.length} checks passed.` : `Failed checks: ${failed.map((c) => `${c.name} (${c.detail})`).join('; ')}.`);
  return parts.join('\n') + '\n';
}
