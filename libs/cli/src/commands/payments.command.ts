import type { CreatePaymentParams, ListPaymentsParams, Payment, PaymentMethod, PaymentStatus } from '@orquestra/node';
import { Command, Option } from 'commander';
import { clientFor, resolveCredentials, type GlobalOptions } from '../context';
import { formatCents, parseFormat, table, toJson, type OutputFormat } from '../format';
import { CliError, type CliIo } from '../io';
import { parseInteger, parseKeyValue } from '../parsers';

const STATUSES: readonly PaymentStatus[] = [
  'requires_method',
  'pending',
  'processing',
  'succeeded',
  'failed',
  'canceled',
  'partially_refunded',
  'refunded',
];
const METHODS: readonly PaymentMethod[] = ['pix', 'boleto', 'card'];

function paymentsTable(payments: readonly Payment[]): string {
  return table(
    ['ID', 'STATUS', 'MÉTODO', 'VALOR', 'CRIADO'],
    payments.map((payment) => [
      payment.id,
      payment.status,
      payment.method ?? '-',
      `R$ ${formatCents(payment.amount)}`,
      payment.created_at,
    ]),
  );
}

interface CreateOptions {
  method?: PaymentMethod;
  amount: number;
  description?: string;
  customerName: string;
  customerEmail?: string;
  customerDocument?: string;
  expiresInMinutes?: number;
  metadata: Record<string, string>;
  providerAccount?: string;
  idempotencyKey?: string;
  data?: string;
}

/** The CreatePayment body from the options; --data (JSON) is merged over them for everything else. */
export function createPaymentBody(options: CreateOptions): CreatePaymentParams {
  const body: CreatePaymentParams = {
    amount: options.amount,
    customer: {
      name: options.customerName,
      ...(options.customerEmail ? { email: options.customerEmail } : {}),
      ...(options.customerDocument ? { document: options.customerDocument } : {}),
    },
    ...(options.method ? { method: options.method } : {}),
    ...(options.description ? { description: options.description } : {}),
    ...(options.expiresInMinutes !== undefined ? { expires_in_minutes: options.expiresInMinutes } : {}),
    ...(Object.keys(options.metadata).length > 0 ? { metadata: options.metadata } : {}),
    ...(options.providerAccount ? { provider_account_id: options.providerAccount } : {}),
  };
  if (!options.data) return body;
  let extra: unknown;
  try {
    extra = JSON.parse(options.data);
  } catch {
    throw new CliError('--data deve ser um objeto JSON, por exemplo \'{"customer":{"name":"Maria","document":"52998224725"}}\'.', 2);
  }
  if (!extra || typeof extra !== 'object' || Array.isArray(extra)) throw new CliError('--data deve ser um objeto JSON.', 2);
  return { ...body, ...(extra as Partial<CreatePaymentParams>) };
}

/** `orq payments list|get|create|simulate`: the payments API, printed as JSON (or a table). */
export function registerPayments(program: Command, io: CliIo): void {
  const payments = program.command('payments').description('lista, consulta e cria pagamentos');
  const formatOption = () => new Option('--format <format>', 'json ou table').default('json').argParser(parseFormat);

  payments
    .command('list')
    .description('lista pagamentos, os mais novos primeiro')
    .option('--limit <n>', 'quantos (1 a 100)', parseInteger('--limit', 1, 100), 10)
    .addOption(new Option('--status <status>', 'só os deste status').choices(STATUSES))
    .addOption(new Option('--method <method>', 'só os deste método').choices(METHODS))
    .option('--q <texto>', 'busca por id, e-mail, nome ou documento do cliente')
    .option('--starting-after <id>', 'a página depois deste pagamento')
    .addOption(formatOption())
    .action(async (options: { limit: number; status?: PaymentStatus; method?: PaymentMethod; q?: string; startingAfter?: string; format: OutputFormat }, command: Command) => {
      const client = clientFor(resolveCredentials(command.optsWithGlobals<GlobalOptions>(), io));
      const params: ListPaymentsParams = {
        limit: options.limit,
        ...(options.status ? { status: options.status } : {}),
        ...(options.method ? { method: options.method } : {}),
        ...(options.q ? { q: options.q } : {}),
        ...(options.startingAfter ? { starting_after: options.startingAfter } : {}),
      };
      const page = await client.payments.list(params);
      io.out(options.format === 'table' ? paymentsTable(page.data) : toJson(page));
    });

  payments
    .command('get')
    .description('um pagamento, com tentativas, reembolsos e eventos')
    .argument('<id>', 'id do pagamento (pay_…)')
    .addOption(formatOption())
    .action(async (id: string, options: { format: OutputFormat }, command: Command) => {
      const client = clientFor(resolveCredentials(command.optsWithGlobals<GlobalOptions>(), io));
      const payment = await client.payments.retrieve(id);
      io.out(options.format === 'table' ? paymentsTable([payment]) : toJson(payment));
    });

  payments
    .command('create')
    .description('cria um pagamento (com Idempotency-Key)')
    .requiredOption('--amount <centavos>', 'valor em centavos (1990 = R$ 19,90)', parseInteger('--amount', 1))
    .addOption(new Option('--method <method>', 'pix, boleto ou card; omitido, o cliente escolhe na página').choices(METHODS))
    .option('--description <texto>', 'descrição')
    .option('--customer-name <nome>', 'nome do cliente', 'Cliente orq')
    .option('--customer-email <email>', 'e-mail do cliente')
    .option('--customer-document <cpf-ou-cnpj>', 'CPF ou CNPJ do cliente (boleto e cartão exigem)')
    .option('--expires-in-minutes <n>', 'validade do Pix', parseInteger('--expires-in-minutes', 1))
    .option('--metadata <chave=valor>', 'metadata (repita para várias)', parseKeyValue, {})
    .option('--provider-account <id>', 'força uma conta conectada')
    .option('--idempotency-key <chave>', 'sua chave de idempotência (padrão: um UUID novo)')
    .option('-d, --data <json>', 'campos a mais do corpo, em JSON (mesclados por cima das opções)')
    .addOption(formatOption())
    .action(async (options: CreateOptions & { format: OutputFormat }, command: Command) => {
      const client = clientFor(resolveCredentials(command.optsWithGlobals<GlobalOptions>(), io));
      const payment = await client.payments.create(createPaymentBody(options), options.idempotencyKey ? { idempotencyKey: options.idempotencyKey } : {});
      io.out(options.format === 'table' ? paymentsTable([payment]) : toJson(payment));
    });

  payments
    .command('simulate')
    .description('modo de teste: marca um pagamento pendente como pago')
    .argument('<id>', 'id do pagamento (pay_…)')
    .action(async (id: string, _options: unknown, command: Command) => {
      const client = clientFor(resolveCredentials(command.optsWithGlobals<GlobalOptions>(), io));
      io.out(toJson(await client.payments.simulate(id)));
    });
}
