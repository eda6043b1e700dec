/**
 * Payouts: the owner's controls (payouts by API on/off and the daily limit, /dashboard/api/payout-settings),
 * the saved Pix keys payouts may go to (/dashboard/api/payout-destinations) and the payouts made.
 */
import { useEffect, useState } from 'preact/hooks';
import { api, v1, type List } from '../../api/client';
import { Badge, Checkbox, Field, Form, Money, MoreButton, Notice, PageHeader, Section, Select, Show, Table, When, useAction, useLoad } from '../../components/ui';
import { formatBrl, parseBrlToCents } from '../../lib/format';
import { currentMode } from '../../lib/mode';
import { ApiError } from '../../api/client';

interface Settings {
  payouts_api_enabled: boolean;
  daily_limit: number;
}
interface Destination {
  id?: string;
  destination_id?: string;
  pix_key_type?: string;
  key_type?: string;
  pix_key?: string;
  key?: string;
  name?: string;
  label?: string;
}
interface Payout {
  id: string;
  status: string;
  amount: number;
  provider: string;
  destination: { type: string; key?: string; label?: string };
  uncertain: boolean;
  failure_reason: string | null;
  created_at: string;
  paid_at: string | null;
}

const KEY_TYPES: Array<[string, string]> = [['cpf', 'CPF'], ['cnpj', 'CNPJ'], ['email', 'E-mail'], ['phone', 'Telefone'], ['evp', 'Chave aleatória']];

export function PayoutsPage() {
  return (
    <>
      <PageHeader title="Repasses" description="Transferências das contas dos provedores para a conta da empresa." />
      <PayoutSettings />
      <Destinations />
      <PayoutList />
    </>
  );
}

function PayoutSettings() {
  const settings = useLoad(() => api<Settings>('GET', '/payout-settings', { query: { mode: currentMode() } }));
  const [enabled, setEnabled] = useState(false);
  const [limit, setLimit] = useState('');
  const [saved, setSaved] = useState(false);
  useEffect(() => {
    if (!settings.data) return;
    setEnabled(settings.data.payouts_api_enabled);
    setLimit(formatBrl(settings.data.daily_limit).replace('R$ ', ''));
  }, [settings.data]);
  const save = useAction(async () => {
    const cents = parseBrlToCents(limit);
    if (cents === undefined) throw new ApiError(400, 'parameter_invalid', 'Limite diário inválido: use o formato 10.000,00.', 'daily_limit');
    await api('PATCH', '/payout-settings', { query: { mode: currentMode() }, body: { payouts_api_enabled: enabled, daily_limit: cents } });
    setSaved(true);
    settings.reload();
  });
  return (
    <Section title="Repasses pela API">
      <Show loaded={settings}>
        {() => (
          <Form label="Configuração de repasses" onSubmit={() => void save.run()} error={save.error} busy={save.busy} submitLabel="Salvar">
            {saved ? <Notice tone="ok">Configuração salva.</Notice> : null}
            <Checkbox label="Permitir repasses pela API neste modo" checked={enabled} onChecked={(value) => { setEnabled(value); setSaved(false); }} hint="Desligado, POST /v1/payouts responde payouts_api_disabled." />
            <Field label="Limite diário (R$)" inputMode="decimal" required value={limit} onValue={(value) => { setLimit(value); setSaved(false); }} hint="Soma dos repasses por dia (dia de São Paulo)." />
          </Form>
        )}
      </Show>
    </Section>
  );
}

function Destinations() {
  const destinations = useLoad(() => api<List<Destination>>('GET', '/payout-destinations', { query: { mode: currentMode() } }));
  const [keyType, setKeyType] = useState('cnpj');
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const add = useAction(async () => {
    await api('POST', '/payout-destinations', { query: { mode: currentMode() }, body: { pix_key_type: keyType, pix_key: key, name } });
    setKey('');
    setName('');
    destinations.reload();
  });
  return (
    <Section title="Chaves Pix salvas">
      <p class="muted">Repasses só vão para estas chaves (da própria empresa) ou para a conta cadastrada no provedor.</p>
      <Show loaded={destinations}>
        {(list) => (
          <Table
            caption="Chaves Pix de repasse"
            rows={list.data}
            rowKey={(destination) => destination.id ?? destination.destination_id ?? destination.pix_key ?? ''}
            columns={[
              { header: 'Nome', cell: (destination) => destination.name ?? destination.label ?? '—' },
              { header: 'Tipo', cell: (destination) => KEY_TYPES.find(([value]) => value === (destination.pix_key_type ?? destination.key_type))?.[1] ?? destination.pix_key_type ?? '—' },
              { header: 'Chave', cell: (destination) => <span class="mono">{destination.pix_key ?? destination.key}</span> },
              { header: 'Id', cell: (destination) => <span class="mono muted">{destination.id ?? destination.destination_id}</span> },
            ]}
          />
        )}
      </Show>
      <h3>Nova chave Pix</h3>
      <Form label="Salvar chave Pix" onSubmit={() => void add.run()} error={add.error} busy={add.busy} submitLabel="Salvar chave">
        <div class="grid">
          <Select label="Tipo da chave" value={keyType} onValue={setKeyType} options={KEY_TYPES} />
          <Field label="Chave Pix" required value={key} onValue={setKey} />
          <Field label="Nome" required placeholder="Conta principal" value={name} onValue={setName} />
        </div>
      </Form>
    </Section>
  );
}

function PayoutList() {
  const [after, setAfter] = useState('');
  const [rows, setRows] = useState<Payout[]>([]);
  const loaded = useLoad(async () => {
    const page = await v1<List<Payout>>('GET', '/payouts', { query: { limit: 25, starting_after: after } });
    setRows((previous) => (after ? [...previous, ...page.data] : page.data));
    return page;
  }, [after]);
  return (
    <Section title="Repasses feitos">
      <Show loaded={loaded}>
        {(page) => (
          <>
            <Table
              caption="Repasses"
              rows={rows}
              rowKey={(payout) => payout.id}
              columns={[
                { header: 'Repasse', cell: (payout) => <span class="mono">{payout.id}</span> },
                { header: 'Valor', cell: (payout) => <Money cents={payout.amount} />, class: 'num' },
                { header: 'Situação', cell: (payout) => <>{<Badge status={payout.status} />}{payout.uncertain ? <span class="muted"> (confirmando)</span> : null}</> },
                { header: 'Destino', cell: (payout) => (payout.destination.type === 'pix_key' ? `Pix ${payout.destination.label ?? ''} ${payout.destination.key ?? ''}` : payout.destination.type === 'subaccount' ? 'Subconta' : 'Conta cadastrada') },
                { header: 'Provedor', cell: (payout) => payout.provider },
                { header: 'Criado em', cell: (payout) => <When at={payout.created_at} /> },
                { header: 'Falha', cell: (payout) => payout.failure_reason ?? '—' },
              ]}
            />
            <MoreButton hasMore={page.has_more} onMore={() => setAfter(rows.at(-1)?.id ?? '')} busy={loaded.loading} />
          </>
        )}
      </Show>
    </Section>
  );
}
