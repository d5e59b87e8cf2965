import { X509Certificate } from 'node:crypto';
import type { JWK } from 'jose';
import type { CredentialConfiguration } from '../../credential-configurations/credential-configuration.entity.js';
import { claimDescription } from '../claim-description.js';
import type { CredentialFormat } from '../credential-format.js';
import { COSE_ALG } from './cose-sign1.js';
import { documentSigningKey } from './document-signing-key.js';
import { signIssuerSigned } from './sign-issuer-signed.js';
import { verifyMdocPresentation } from './verify-mdoc-presentation.js';

const doctypeOf = (c: Pick<CredentialConfiguration, 'id' | 'doctype'>) => {
  if (!c.doctype) throw new Error(`mdoc configuration ${c.id} has no doctype`);
  return c.doctype;
};

/** Its one namespace when it has one: the employee mdoc's elements live in the namespace of its doctype. */
const namespaceOf = (c: CredentialConfiguration) =>
  Object.keys(c.payloadSchema.properties ?? {})[0] ?? doctypeOf(c);

/** notBefore (ms) of a document signer certificate, parsed once per certificate. */
const starts = new Map<string, number>();
function certificateStart(der: Uint8Array): number {
  const key = Buffer.from(der).toString('base64');
  let start = starts.get(key);
  if (start === undefined) {
    start = new Date(new X509Certificate(der).validFrom).getTime();
    if (starts.size > 16) starts.clear();
    starts.set(key, start);
  }
  return start;
}

const P256 = [COSE_ALG.ES256, COSE_ALG.ESP256];

/** ISO mdoc (`mso_mdoc`): OID4VCI 1.0 appendix A.2, OID4VP 1.0 appendix B.2, HAIP 1.0 section 6. */
export const msoMdocFormat: CredentialFormat = {
  id: 'mso_mdoc',
  haip: true,
  bindsTransactionData: false,
  vpFormatsSupported: () => ({ issuerauth_alg_values: P256, deviceauth_alg_values: P256 }),
  claimsPathProblem: (path) =>
    path.length === 2 && path.every((s) => typeof s === 'string' && s.length > 0)
      ? undefined
      : 'an mdoc claim is [namespace, element], e.g. ["eu.europa.ec.eudi.pid.1", "family_name"]',
  verifyPresentation: verifyMdocPresentation,
  issuing: {
    typeOf: doctypeOf,
    describeConfiguration: (c, _issuerUrl, shared) => ({
      format: 'mso_mdoc' as const,
      doctype: doctypeOf(c),
      ...shared,
      cryptographic_binding_methods_supported: ['cose_key'],
      // The IssuerAuth is ES256 on P-256, which ESP256 names fully (OID4VCI A.2.2 example).
      credential_signing_alg_values_supported: P256,
      credential_metadata: { display: c.display, claims: c.claims.map(claimDescription) },
    }),
    holderBindingRequired: true,
    signCredential: async (signer, input) => {
      if (!input.holderJwk) throw new Error('an mdoc is always bound to a device key');
      const key = await documentSigningKey(signer, 'document-signer');
      // The MSO's times are the batch's rounded ones (OID4VCI 15.4.1), but never before the
      // document signer's certificate: ISO 18013-5 has verifiers check that it signed while valid.
      const from = new Date(
        Math.max(input.issuedAt.getTime(), certificateStart(key.x5chain[0] as Uint8Array)),
      );
      const signed = await signIssuerSigned(key, {
        doctype: doctypeOf(input.configuration),
        namespaces: input.claims as Record<string, Record<string, unknown>>,
        deviceKey: input.holderJwk as JWK,
        signedAt: from,
        validFrom: from,
        validUntil: input.expiresAt,
        status: input.status,
      });
      return signed.credential;
    },
    credentialQuery: (doctype, paths, id) => ({
      id,
      format: 'mso_mdoc',
      meta: { doctype_value: doctype },
      ...(paths.length
        ? { claims: paths.map((path) => ({ path: [...path], intent_to_retain: false })) }
        : {}),
    }),
    employeeSchema: (c) =>
      ((c.payloadSchema.properties as Record<string, Record<string, unknown>> | undefined)?.[
        namespaceOf(c)
      ] ?? {}) as Record<string, unknown>,
    payloadFromEmployee: (c, employee) => ({ [namespaceOf(c)]: employee }),
  },
};
