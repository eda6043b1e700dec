import { X509Certificate, createPrivateKey } from 'node:crypto';
import { AppError } from '@orquestra/platform';

const MESSAGE =
  'O campo credentials.certificate deve conter o certificado da sua conta Efí e a chave privada correspondente, em PEM ' +
  '(-----BEGIN CERTIFICATE----- … -----BEGIN PRIVATE KEY----- …). Converta o arquivo .p12 baixado no painel da Efí para PEM e envie os dois juntos.';

/**
 * Refuses an Efí certificate bundle that cannot work before any connection is tried: without this,
 * a broken PEM fails inside the TLS handshake and looks like the provider being down (503) instead
 * of the caller's mistake (400 invalid_credentials on credentials.certificate). Found by the
 * Schemathesis run (tools/fuzz).
 */
export function assertUsableEfiCertificate(certificatePem: string, privateKeyPem: string): void {
  try {
    if (!certificatePem || !privateKeyPem) throw new Error('missing part');
    const certificate = new X509Certificate(certificatePem);
    if (!certificate.checkPrivateKey(createPrivateKey(privateKeyPem))) throw new Error('key does not match');
  } catch {
    throw new AppError('invalid_credentials', { param: 'credentials.certificate', message: MESSAGE });
  }
}
