import { generateTestCerts } from '@orquestra/emulators';
import { AppError } from '@orquestra/platform';
import { assertUsableEfiCertificate } from './efi-certificate.check';

function failure(run: () => void): AppError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error as AppError;
  }
}

describe('Efí certificate bundle check', () => {
  const certs = generateTestCerts('efi-certificate-check');
  const other = generateTestCerts('efi-certificate-check-other');

  it('accepts a certificate with its own private key', () => {
    expect(failure(() => assertUsableEfiCertificate(certs.clientCertPem, certs.clientKeyPem))).toBeUndefined();
  });

  it('refuses garbage, a missing key and a key of another certificate with invalid_credentials on credentials.certificate', () => {
    const cases: Array<[string, string]> = [
      ['-----BEGIN CERTIFICATE-----…', ''],
      ['-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----', certs.clientKeyPem],
      [certs.clientCertPem, ''],
      [certs.clientCertPem, other.clientKeyPem],
    ];
    for (const [cert, key] of cases) {
      const error = failure(() => assertUsableEfiCertificate(cert, key));
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'invalid_credentials', param: 'credentials.certificate' });
      expect(error?.message).toMatch(/PEM/);
    }
  });
});
