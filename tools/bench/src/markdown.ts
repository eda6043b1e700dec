/** A run as a markdown section, ready to paste into docs/performance.md. */
import type { BenchReport } from './report';
import { distributionTable, goalLine, loadTable, methodTable, overheadLine, peakRssLine, resourceTable, webhookTable, type Table } from './tables';

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
    `${machine.cores} cores (${machine.cpuModel}), ${machine.memTotalGiB} GiB RAM, Linux ${machine.kernel}, node ${machine.node}, ` +
      `FerretDB ${machine.ferretdb}, RabbitMQ ${machine.rabbitmq}. ` +
      `${options.connections} connections, ${options.durationS} s per run, ${options.warmupS} s warm-up before the healthy run.`,
    '',
    markdown(loadTable(report.phases)),
    '',
    markdown(distributionTable(report.phases)),
  ];
  for (const line of [goalLine(report), overheadLine(report)]) if (line) parts.push('', `**${line}**`);
  const webhooks = webhookTable(report.phases);
  if (webhooks) parts.push('', 'Event → webhook latency (POST /v1/payments answered → its `payment.created` webhook arrived; goal p99 ≤ 500 ms):', '', markdown(webhooks));
  parts.push('', 'Mean ms per call inside each service (calls in brackets):', '', markdown(methodTable(report.phases)));
  parts.push('', markdown(resourceTable(report)), '', peakRssLine(report));
  const failed = report.checks.filter((c) => !c.ok);
  parts.push('', failed.length === 0 ? `All ${report.checks.length} checks passed.` : `Failed checks: ${failed.map((c) => `${c.name} (${c.detail})`).join('; ')}.`);
  return parts.join('\n') + '\n';
}
