import { webhookUrlProblem } from './webhook-url';

describe('webhookUrlProblem', () => {
  it('accepts https to public hosts in both modes', () => {
    expect(webhookUrlProblem('https://loja.com.br/webhooks', 'live')).toBeNull();
    expect(webhookUrlProblem('https://loja.com.br/webhooks', 'test')).toBeNull();
  });

  it('accepts plain http only to this machine, and only in test mode', () => {
    expect(webhookUrlProblem('http://localhost:3000/hook', 'test')).toBeNull();
    expect(webhookUrlProblem('http://127.0.0.1:3000/hook', 'test')).toBeNull();
    expect(webhookUrlProblem('http://[::1]:3000/hook', 'test')).toBeNull();
    expect(webhookUrlProblem('http://loja.com.br/hook', 'test')).toMatch(/https/);
    expect(webhookUrlProblem('http://localhost:3000/hook', 'live')).toMatch(/https/);
  });

  it('refuses internal addresses in live mode, credentials, fragments and other schemes', () => {
    for (const url of ['https://127.0.0.1/x', 'https://10.0.0.5/x', 'https://192.168.1.1/x', 'https://169.254.169.254/x', 'https://[::1]/x', 'https://svc.internal/x']) {
      expect(webhookUrlProblem(url, 'live')).toMatch(/público/);
    }
    expect(webhookUrlProblem('https://u:p@loja.com.br/x', 'live')).toMatch(/senha/);
    expect(webhookUrlProblem('https://loja.com.br/x#a', 'live')).toMatch(/fragmento/);
    expect(webhookUrlProblem('ftp://loja.com.br/x', 'test')).toMatch(/https/);
    expect(webhookUrlProblem('loja.com.br', 'test')).toMatch(/URL completa/);
  });
});
