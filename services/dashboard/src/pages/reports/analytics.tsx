/**
 * Analytics from GET /v1/analytics/overview: totals, then volume and approval rate by provider over
 * time (one overview per São Paulo day of the period, since the overview's daily series is not split
 * by provider), drawn with Chart.js.
 */
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, LineController, LineElement, PointElement, Tooltip } from 'chart.js';
import { useEffect, useRef, useState } from 'preact/hooks';
import { v1 } from '../../api/client';
import { Money, PageHeader, Section, Select, Show, Table, useLoad } from '../../components/ui';
import { formatBrl, formatDay, formatRate, saoPauloDay } from '../../lib/format';

Chart.register(BarController, BarElement, LineController, LineElement, PointElement, CategoryScale, LinearScale, Legend, Tooltip);

interface Totals {
  gross: number;
  net: number;
  fees: number;
  refunded: number;
  created: number;
  approved: number;
  approval_rate: number | null;
}
interface Overview {
  totals: Totals;
  by_provider: Array<Totals & { provider: string | null; provider_account_id: string | null }>;
}
interface Day {
  day: string;
  overview: Overview;
}

const COLORS = ['#4338ca', '#0f766e', '#b45309', '#be123c', '#6d28d9', '#15803d', '#0369a1'];

export function AnalyticsPage() {
  const [days, setDays] = useState('7');
  const loaded = useLoad(async () => {
    const count = Number(days);
    const dayList = Array.from({ length: count }, (_, index) => saoPauloDay(count - 1 - index));
    const [period, ...perDay] = await Promise.all([
      v1<Overview>('GET', '/analytics/overview', { query: { days: count } }),
      ...dayList.map((day) => v1<Overview>('GET', '/analytics/overview', { query: { start: day, end: day } })),
    ]);
    if (!period) throw new Error('sem resposta');
    return { period, daily: dayList.flatMap((day, index): Day[] => { const overview = perDay[index]; return overview ? [{ day, overview }] : []; }) };
  }, [days]);
  return (
    <>
      <PageHeader title="Análises" description="Volume e taxa de aprovação por provedor ao longo do tempo (dias de São Paulo)." />
      <div class="filters">
        <Select label="Período" value={days} onValue={setDays} options={[['7', 'Últimos 7 dias'], ['14', 'Últimos 14 dias'], ['30', 'Últimos 30 dias']]} />
      </div>
      <Show loaded={loaded}>
        {({ period, daily }) => (
          <>
            <div class="stats">
              <Stat label="Volume aprovado" value={formatBrl(period.totals.gross)} />
              <Stat label="Líquido" value={formatBrl(period.totals.net)} />
              <Stat label="Tarifas" value={formatBrl(period.totals.fees)} />
              <Stat label="Taxa de aprovação" value={formatRate(period.totals.approval_rate)} />
              <Stat label="Pagamentos criados" value={String(period.totals.created)} />
            </div>
            <Section title="Volume por provedor">
              <ProviderChart daily={daily} kind="volume" />
            </Section>
            <Section title="Taxa de aprovação por provedor">
              <ProviderChart daily={daily} kind="rate" />
            </Section>
            <Section title="Por provedor no período">
              <Table
                caption="Resumo por provedor"
                rows={period.by_provider}
                rowKey={(row) => row.provider_account_id ?? row.provider ?? 'sem-conta'}
                columns={[
                  { header: 'Provedor', cell: (row) => row.provider ?? 'Sem conta' },
                  { header: 'Conta', cell: (row) => <span class="mono muted">{row.provider_account_id ?? '—'}</span> },
                  { header: 'Volume', cell: (row) => <Money cents={row.gross} />, class: 'num' },
                  { header: 'Criados', cell: (row) => row.created, class: 'num' },
                  { header: 'Aprovados', cell: (row) => row.approved, class: 'num' },
                  { header: 'Aprovação', cell: (row) => formatRate(row.approval_rate), class: 'num' },
                ]}
              />
            </Section>
          </>
        )}
      </Show>
    </>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <div class="stat">
      <span class="stat-label">{label}</span>
      <strong class="stat-value">{value}</strong>
    </div>
  );
}

function ProviderChart({ daily, kind }: { daily: Day[]; kind: 'volume' | 'rate' }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const providers = [...new Set(daily.flatMap((day) => day.overview.by_provider.map((row) => row.provider ?? 'sem conta')))];
  const labels = daily.map((day) => formatDay(day.day).slice(0, 5));
  const valueOf = (day: Day, provider: string): number | null => {
    const rows = day.overview.by_provider.filter((row) => (row.provider ?? 'sem conta') === provider);
    if (kind === 'volume') return rows.reduce((sum, row) => sum + row.gross, 0) / 100;
    // Accounts of one provider: their rates weighted by the payments each created.
    const rated = rows.filter((row) => row.approval_rate !== null && row.created > 0);
    const weight = rated.reduce((sum, row) => sum + row.created, 0);
    return weight ? Math.round((rated.reduce((sum, row) => sum + (row.approval_rate ?? 0) * row.created, 0) / weight) * 1000) / 10 : null;
  };
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      type: kind === 'volume' ? 'bar' : 'line',
      data: {
        labels,
        datasets: providers.map((provider, index) => ({
          label: provider,
          data: daily.map((day) => valueOf(day, provider)),
          backgroundColor: COLORS[index % COLORS.length],
          borderColor: COLORS[index % COLORS.length],
          spanGaps: true,
          pointRadius: 4,
          clip: false as const,
        })),
      },
      options: {
        responsive: true,
        maintainAspectRatio: false,
        animation: false,
        layout: { padding: { top: 8 } },
        scales: {
          // Points sit inside the axis (not on its edges), so a single day with payments stays visible.
          x: { stacked: kind === 'volume', offset: true },
          y: { stacked: kind === 'volume', beginAtZero: true, ...(kind === 'rate' ? { max: 100 } : {}), ticks: { callback: (value) => (kind === 'volume' ? `R$ ${Number(value).toLocaleString('pt-BR')}` : `${String(value)}%`) } },
        },
        plugins: { legend: { position: 'bottom' } },
      },
    });
    return () => chart.destroy();
  });
  const summary = providers
    .map((provider) => {
      const values = daily.map((day) => valueOf(day, provider));
      if (kind === 'volume') return `${provider}: ${formatBrl(Math.round(values.reduce<number>((sum, value) => sum + (value ?? 0), 0) * 100))} no período`;
      const known = values.filter((value): value is number => value !== null);
      return `${provider}: ${known.length ? `${known[known.length - 1]}% no último dia com pagamentos` : 'sem pagamentos'}`;
    })
    .join('; ');
  if (providers.length === 0) return <p class="empty">Nenhum pagamento no período.</p>;
  return (
    <div class="chart">
      <canvas ref={canvas} role="img" aria-label={`${kind === 'volume' ? 'Volume diário por provedor' : 'Taxa de aprovação diária por provedor'}. ${summary}`} />
    </div>
  );
}
