import { connectedAccountsOfEvent, dueInPortuguese, toProviderSubaccount, type StripeConnectedAccount } from './stripe.subaccounts';

const account = (over: Partial<StripeConnectedAccount> = {}): StripeConnectedAccount => ({
  id: 'acct_1Test000000000000',
  object: 'account',
  type: 'express',
  payouts_enabled: false,
  capabilities: { transfers: 'inactive' },
  requirements: { currently_due: [], disabled_reason: null },
  ...over,
});

describe('Stripe connected account → subaccount status', () => {
  it.each([
    ['rejected.terms_of_service', 'refused', 'A Stripe recusou a conta: violação dos termos de serviço.'],
    ['rejected.something_new', 'refused', 'A Stripe recusou a conta: rejected.something_new.'],
    ['listed', 'blocked', 'A Stripe bloqueou a conta: possível presença em lista restritiva, em análise.'],
    ['platform_paused', 'blocked', 'A Stripe bloqueou a conta: conta pausada pela plataforma.'],
    ['under_review', 'pending', 'A conta está em análise pela Stripe.'],
    ['requirements.pending_verification', 'pending', 'Dados enviados; a Stripe está verificando as informações.'],
    ['action_required.requested_capabilities', 'pending', 'A Stripe ainda não habilitou a conta (action_required.requested_capabilities).'],
  ])('disabled_reason %s → %s', (reason, status, detail) => {
    expect(toProviderSubaccount(account({ requirements: { currently_due: [], disabled_reason: reason } }))).toMatchObject({ status, statusDetail: detail, providerStatus: reason });
  });

  it('what is currently due is listed in Portuguese, each thing once, unknown names as Stripe gives them', () => {
    expect(dueInPortuguese(['individual.first_name', 'individual.last_name', 'individual.id_number', 'external_account', 'tos_acceptance.date', 'tos_acceptance.ip', 'settings.payments.statement_descriptor'])).toBe(
      'nome completo, CPF, conta bancária, aceite dos termos da Stripe, settings.payments.statement_descriptor',
    );
    expect(toProviderSubaccount(account({ requirements: { currently_due: ['external_account'], disabled_reason: 'requirements.past_due' } }))).toMatchObject({
      status: 'pending',
      statusDetail: 'Cadastro pendente na Stripe: falta informar conta bancária.',
    });
  });

  it('active only with payouts enabled and the transfers capability active; otherwise pending while Stripe turns it on', () => {
    expect(toProviderSubaccount(account({ payouts_enabled: true, capabilities: { transfers: 'active' } }))).toMatchObject({ status: 'active', providerStatus: 'enabled' });
    expect(toProviderSubaccount(account({ payouts_enabled: true, capabilities: { transfers: 'pending' } }))).toMatchObject({ status: 'pending', providerStatus: 'enabled' });
    expect(toProviderSubaccount(account({ payouts_enabled: false, capabilities: { transfers: 'active' } }))).toMatchObject({ status: 'pending', providerStatus: 'restricted' });
  });

  it('only account.updated names a connected account', () => {
    const event = (type: string, object: unknown) => Buffer.from(JSON.stringify({ id: 'evt_1', object: 'event', type, account: 'acct_1Test000000000000', data: { object } }));
    expect(connectedAccountsOfEvent(event('account.updated', { object: 'account', id: 'acct_1Test000000000000' }))).toEqual(['acct_1Test000000000000']);
    expect(connectedAccountsOfEvent(event('payout.paid', { object: 'payout', id: 'po_1' }))).toEqual([]);
    expect(connectedAccountsOfEvent(Buffer.from('not json'))).toEqual([]);
  });
});
