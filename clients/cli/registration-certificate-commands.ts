import { readFileSync } from 'node:fs';
import { createClient } from '../integrator/src/index.js';

export const REGISTRATION_CERTIFICATE_USAGE = `  registration-certificate import verifier <tenant id> <certificate.jwt>
  registration-certificate import issuer <certificate.jwt>
  registration-certificate show verifier <tenant id> | show issuer
  registration-certificate remove verifier <tenant id> | remove issuer`;

type Result = Promise<{ status: number; body: unknown }>;

/**
 * `registration-certificate …`: the registration certificate (ETSI TS 119 475) a registrar issued,
 * as a file holding the JWT; a tenant's verifier's goes into its request objects, the issuer's into
 * the issuer metadata. Undefined for an unknown sub-command or role.
 */
export function registrationCertificateCommand(
  o: { baseUrl: string; token: string },
  command: string | undefined,
  [role, ...rest]: (string | undefined)[],
  need: (v: string | undefined, what: string) => string,
): Result | undefined {
  const api = createClient(o).registrationCertificates;
  // 204 has no body: print what was removed instead of nothing.
  const removed = (res: { status: number; body: unknown }) =>
    res.status === 204 ? { status: 204, body: { removed: role } } : res;
  const jwt = (file: string | undefined) => readFileSync(need(file, 'certificate file (JWT)'), 'utf8').trim();
  if (role === 'verifier') {
    const [tenant, file] = rest;
    const params = () => ({ id: need(tenant, 'tenant id') });
    switch (command) {
      case 'import':
        return api.putVerifierRegistrationCertificate({ params: params(), body: { certificate: jwt(file) } });
      case 'show':
        return api.getVerifierRegistrationCertificate({ params: params() });
      case 'remove':
        return api.deleteVerifierRegistrationCertificate({ params: params() }).then(removed);
    }
  }
  if (role === 'issuer') {
    switch (command) {
      case 'import':
        return api.putIssuerRegistrationCertificate({ body: { certificate: jwt(rest[0]) } });
      case 'show':
        return api.getIssuerRegistrationCertificate();
      case 'remove':
        return api.deleteIssuerRegistrationCertificate().then(removed);
    }
  }
  return undefined;
}
