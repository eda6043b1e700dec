import { rootCertificates } from 'node:tls';
import { tlsConnectOptions } from './tls-context';

// Connections through these contexts are exercised by every adapter's contract tests (emulators
// over TLS with the test CA, Efí with its client certificate); this checks what is built when.
describe('tlsConnectOptions', () => {
  const extraCa = rootCertificates[0]!;

  it('leaves Node defaults alone when there is no extra CA and no client certificate', () => {
    expect(tlsConnectOptions({})).toEqual({});
  });

  it('builds one context per extra CA, shared by every pool that uses it', () => {
    const first = tlsConnectOptions({ caPem: extraCa }).secureContext;
    expect(first).toBeDefined();
    expect(tlsConnectOptions({ caPem: extraCa }).secureContext).toBe(first);
  });
});
