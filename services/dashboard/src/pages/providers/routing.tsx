/** Routing rules (ordered or weighted targets) and the dry-run explained account by account. */
import { useState } from 'preact/hooks';
import { v1, type List } from '../../api/client';
import { Badge, ConfirmButton, ErrorMessage, Field, Form, Notice, PageHeader, Section, Select, Show, Table, useAction, useLoad } from '../../components/ui';
import { formatRate, parseBrlToCents, formatBrl } from '../../lib/format';
import { ApiError } from '../../api/client';
import { routingReason } from '../../lib/routing-reasons';
import type { ProviderAccount } from './provider-accounts';

interface Rule {
  id: string;
  name: string;
  priority: number;
  enabled: boolean;
  conditions: { methods: string[]; amount_min: number | null; amount_max: number | null; metadata: Array<{ key: string; value: string | null }>; customer_has: string[] };
  target: { type: 'accounts'; accounts: string[]; fallback: boolean } | { type: 'weighted'; weights: Array<{ account_id: string; percentage: number }>; fallback: boolean };
}
interface Simulation {
  accounts: Array<{ account_id: string; provider: string; verdict: 'chosen' | 'ranked_lower' | 'excluded'; rank: number | null; reasons: string[]; breaker_state: string; success_rate: number | null; recent_attempts: number }>;
  matched_rule_id: string | null;
  error: { code: string; message: string; param: string | null } | null;
}

const VERDICT: Record<string, string> = { chosen: 'Escolhida', ranked_lower: 'Reserva (failover)', excluded: 'Excluída' };

function describeConditions(rule: Rule): string {
  const parts: string[] = [];
  if (rule.conditions.methods.length) parts.push(`método ${rule.conditions.methods.join(' ou ')}`);
  if (rule.conditions.amount_min !== null) parts.push(`a partir de ${formatBrl(rule.conditions.amount_min)}`);
  if (rule.conditions.amount_max !== null) parts.push(`até ${formatBrl(rule.conditions.amount_max)}`);
  for (const entry of rule.conditions.metadata) parts.push(entry.value === null ? `metadado ${entry.key} presente` : `${entry.key} = ${entry.value}`);
  if (rule.conditions.customer_has.length) parts.push(`cliente com ${rule.conditions.customer_has.join(', ')}`);
  return parts.join('; ') || 'todos os pagamentos';
}

function describeTarget(rule: Rule, names: Record<string, string>): string {
  const target = rule.target;
  const name = (id: string) => names[id] ?? id;
  const list = target.type === 'accounts' ? `em ordem: ${target.accounts.map(name).join(' → ')}` : `por peso: ${target.weights.map((weight) => `${name(weight.account_id)} ${weight.percentage}%`).join(', ')}`;
  return `${list}${target.fallback ? '; se falharem, as demais contas' : ''}`;
}

export function RoutingPage() {
  const rules = useLoad(() => v1<List<Rule>>('GET', '/routing-rules'));
  const accounts = useLoad(() => v1<List<ProviderAccount>>('GET', '/provider-accounts'));
  const names = Object.fromEntries((accounts.data?.data ?? []).map((account) => [account.id, account.name]));
  const ruleNames = Object.fromEntries((rules.data?.data ?? []).map((rule) => [rule.id, rule.name]));
  const remove = useAction(async (id: string) => {
    await v1('DELETE', `/routing-rules/${id}`);
    rules.reload();
  });
  return (
    <>
      <PageHeader title="Roteamento" description="Regras que escolhem a conta de cada pagamento; sem regra, vale a prioridade das contas e a saúde de cada uma." />
      <Section title="Regras">
        <ErrorMessage error={remove.error} />
        <Show loaded={rules}>
          {(list) => (
            <Table
              caption="Regras de roteamento"
              rows={list.data}
              rowKey={(rule) => rule.id}
              columns={[
                { header: 'Ordem', cell: (rule) => rule.priority, class: 'num' },
                { header: 'Nome', cell: (rule) => rule.name },
                { header: 'Quando', cell: describeConditions },
                { header: 'Envia para', cell: (rule) => describeTarget(rule, names) },
                { header: 'Situação', cell: (rule) => <Badge status={rule.enabled ? 'active' : 'inactive'} /> },
                { header: 'Ações', cell: (rule) => <ConfirmButton label="Excluir" title={`Excluir a regra "${rule.name}"?`} message={<p>Os próximos pagamentos deixam de seguir esta regra.</p>} confirmLabel="Excluir regra" onConfirm={() => remove.run(rule.id)} /> },
              ]}
            />
          )}
        </Show>
      </Section>
      <Show loaded={accounts}>{(list) => <NewRule accounts={list.data} onCreated={rules.reload} />}</Show>
      <DryRun names={names} ruleNames={ruleNames} />
    </>
  );
}

function NewRule({ accounts, onCreated }: { accounts: ProviderAccount[]; onCreated: () => void }) {
  const [name, setName] = useState('');
  const [method, setMethod] = useState('');
  const [minimum, setMinimum] = useState('');
  const [first, setFirst] = useState(accounts[0]?.id ?? '');
  const [fallback, setFallback] = useState('yes');
  const create = useAction(async () => {
    const amountMin = minimum ? parseBrlToCents(minimum) : null;
    if (minimum && amountMin === undefined) throw new ApiError(400, 'parameter_invalid', 'Valor mínimo inválido: use o formato 100,00.', 'amount_min');
    await v1('POST', '/routing-rules', { body: { name, conditions: { ...(method ? { methods: [method] } : {}), amount_min: amountMin }, target: { type: 'accounts', accounts: [first], fallback: fallback === 'yes' } } });
    setName('');
    onCreated();
  });
  if (accounts.length === 0) return <Section title="Nova regra"><p class="empty">Conecte uma conta de provedor para criar regras.</p></Section>;
  return (
    <Section title="Nova regra">
      <Form label="Nova regra de roteamento" onSubmit={() => void create.run()} error={create.error} busy={create.busy} submitLabel="Criar regra">
        <div class="grid">
          <Field label="Nome" required value={name} onValue={setName} />
          <Select label="Método" value={method} onValue={setMethod} options={[['', 'Qualquer'], ['pix', 'Pix'], ['card', 'Cartão'], ['boleto', 'Boleto']]} />
          <Field label="A partir de (R$)" inputMode="decimal" hint="Opcional." value={minimum} onValue={setMinimum} />
          <Select label="Enviar para" value={first} onValue={setFirst} options={accounts.map((account): [string, string] => [account.id, `${account.name} (${account.provider})`])} />
          <Select label="Se a conta falhar" value={fallback} onValue={setFallback} options={[['yes', 'Tentar as demais contas'], ['no', 'Não tentar outras']]} />
        </div>
      </Form>
    </Section>
  );
}

function DryRun({ names, ruleNames }: { names: Record<string, string>; ruleNames: Record<string, string> }) {
  // Rule ids in the planner's reasons read as the rules' names.
  const withNames = (text: string) => text.replace(/\brr_[0-9a-z]+\b/g, (id) => (ruleNames[id] ? `"${ruleNames[id]}"` : id));
  const [method, setMethod] = useState('pix');
  const [amount, setAmount] = useState('100,00');
  const [result, setResult] = useState<Simulation | undefined>();
  const simulate = useAction(async () => {
    const cents = parseBrlToCents(amount);
    if (cents === undefined) throw new ApiError(400, 'parameter_invalid', 'Valor inválido: use o formato 100,00.', 'amount');
    setResult(await v1<Simulation>('POST', '/routing/simulate', { body: { method, amount: cents } }));
  });
  return (
    <Section title="Simular (dry-run)">
      <p class="muted">Mostra, sem cobrar nada, qual conta receberia um pagamento agora, a ordem de failover e por que cada conta ficou de fora.</p>
      <Form label="Simular roteamento" onSubmit={() => void simulate.run()} error={simulate.error} busy={simulate.busy} submitLabel="Simular">
        <div class="grid">
          <Select label="Método" value={method} onValue={setMethod} options={[['pix', 'Pix'], ['card', 'Cartão'], ['boleto', 'Boleto']]} />
          <Field label="Valor (R$)" inputMode="decimal" required value={amount} onValue={setAmount} />
        </div>
      </Form>
      {result ? (
        <div aria-live="polite">
          {result.error ? <Notice tone="warn">{result.error.message}</Notice> : null}
          <p>{result.matched_rule_id ? `Regra aplicada: ${withNames(result.matched_rule_id)}.` : 'Nenhuma regra se aplica: vale a prioridade das contas e a taxa de sucesso recente.'}</p>
          <Table
            caption="Resultado da simulação"
            rows={result.accounts}
            rowKey={(row) => row.account_id}
            columns={[
              { header: 'Posição', cell: (row) => row.rank ?? '—', class: 'num' },
              { header: 'Conta', cell: (row) => <>{names[row.account_id] ?? ''} <small class="mono muted">{row.account_id}</small></> },
              { header: 'Provedor', cell: (row) => row.provider },
              { header: 'Decisão', cell: (row) => <span class={`badge badge-${row.verdict === 'chosen' ? 'ok' : row.verdict === 'excluded' ? 'bad' : 'neutral'}`}>{VERDICT[row.verdict]}</span> },
              { header: 'Por quê', cell: (row) => withNames(row.reasons.map(routingReason).join('; ')) || '—' },
              { header: 'Sucesso recente', cell: (row) => `${formatRate(row.success_rate)} (${row.recent_attempts} tentativas)` },
            ]}
          />
        </div>
      ) : null}
    </Section>
  );
}
