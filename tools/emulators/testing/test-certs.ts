/**
 * Throwaway PKI for emulator tests: a CA, a server certificate for localhost/127.0.0.1 and a
 * client certificate, all made with the system `openssl` in a temp directory. Same file names as
 * `tools/infra/certs.sh` writes into `.local/certs/`, so code that reads a cert dir works with both.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TestCerts {
  dir: string;
  caPem: string;
  serverCertPem: string;
  serverKeyPem: string;
  clientCertPem: string;
  clientKeyPem: string;
  /** Deletes the directory. */
  cleanup(): void;
}

function openssl(args: string[], cwd: string): void {
  execFileSync('openssl', args, { cwd, stdio: 'pipe' });
}

function issue(cwd: string, name: string, subject: string, extensions: string): void {
  openssl(['req', '-new', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject], cwd);
  writeFileSync(join(cwd, `${name}.ext`), extensions);
  openssl(
    ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial',
      '-out', `${name}.pem`, '-days', '2', '-sha256', '-extfile', `${name}.ext`],
    cwd,
  );
}

/**
 * Creates `ca.pem`/`ca.key`, `server.pem`/`server.key` (SAN localhost, 127.0.0.1) and
 * `client.pem`/`client.key`, all signed by that CA.
 * @param label distinguishes the CA subject when a test needs two unrelated CAs.
 */
export function generateTestCerts(label = 'orquestra-test'): TestCerts {
  const dir = mkdtempSync(join(tmpdir(), `${label}-certs-`));
  openssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'ca.key', '-out', 'ca.pem', '-days', '2',
    '-subj', `/CN=${label} CA`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  issue(dir, 'server', '/CN=localhost',
    'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth,clientAuth\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n');
  issue(dir, 'client', `/CN=${label} client`,
    'basicConstraints=CA:FALSE\nkeyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n');
  const read = (file: string) => readFileSync(join(dir, file), 'utf8');
  return {
    dir,
    caPem: read('ca.pem'),
    serverCertPem: read('server.pem'),
    serverKeyPem: read('server.key'),
    clientCertPem: read('client.pem'),
    clientKeyPem: read('client.key'),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
