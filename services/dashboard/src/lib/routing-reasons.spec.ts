import { routingReason } from './routing-reasons';

describe('routing dry-run reasons in Portuguese', () => {
  it('says the planner phrases in Portuguese, joined as they came', () => {
    expect(routingReason('eligible; priority 10')).toBe('elegível; prioridade 10');
    expect(routingReason('does not accept card')).toBe('não aceita card');
    expect(routingReason('requires customer.document for boleto')).toBe('exige customer.document para boleto');
    expect(routingReason("fallback after rule rr_1's targets; priority 20; ranked last: success rate 40% over 12 recent attempts")).toBe(
      'reserva depois dos alvos da regra rr_1; prioridade 20; por último: 40% de sucesso em 12 tentativas recentes',
    );
  });

  it('keeps an unknown phrase as it is', () => {
    expect(routingReason('something new')).toBe('something new');
  });
});
