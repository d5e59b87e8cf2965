import type { CredentialQuery } from '../../../contract/oid4vp/dcql-query.js';
import { checkTrustedAuthorities } from '../../oid4vp/verification/check-trusted-authorities.js';
import { checkRequestedClaims } from '../../oid4vp/verification/match-dcql.js';
import { check } from '../../oid4vp/verification/presentation-error.js';
import type { Checks, VerifiedCredential } from '../../oid4vp/verification/types.js';
import { checkMdocStatus } from './check-mdoc-status.js';
import { sessionTranscriptOf } from './mdoc-transcript.js';
import type { RequestedElement } from './read-issuer-signed-items.js';
import { verifyDeviceResponse } from './verify-device-response.js';

/** The `[namespace, element]` claims of an mso_mdoc query (OID4VP 1.0 B.2.4); undefined: no claims asked. */
function requestedElements(query: CredentialQuery): RequestedElement[] | undefined {
  if (!query.claims) return undefined;
  return query.claims.map((c) => {
    const [namespace, element] = c.path;
    check(
      c.path.length === 2 && typeof namespace === 'string' && typeof element === 'string',
      'malformed',
      `an mso_mdoc claim path is [namespace, element], not ${JSON.stringify(c.path)}`,
    );
    return { namespace, element };
  });
}

/**
 * Verifies one `mso_mdoc` presentation (OID4VP 1.0 B.2): the base64url DeviceResponse with one
 * document of the query's `doctype_value`, its issuer signature by a document signer chained to the
 * tenant's trust anchors (IACA roots), the MSO's validity, every disclosed digest, only requested
 * elements, the device signature over the transcript this verifier rebuilds, the requested claims'
 * values, `trusted_authorities`, and the status list entry.
 */
export async function verifyMdocPresentation(
  presentation: unknown,
  query: CredentialQuery,
  checks: Checks,
): Promise<VerifiedCredential> {
  check(
    typeof presentation === 'string',
    'malformed',
    'an mso_mdoc presentation is a base64url DeviceResponse',
  );
  const doctype = query.meta.doctype_value;
  check(typeof doctype === 'string', 'malformed', 'the query has no meta.doctype_value');
  const requested = requestedElements(query);
  const mdoc = verifyDeviceResponse(presentation, {
    sessionTranscript: sessionTranscriptOf(checks),
    trust: checks.trust,
    now: checks.now,
    skewSeconds: checks.skewSeconds,
    expectedDoctype: doctype,
    ...(requested ? { requested } : {}),
  });
  checkRequestedClaims(mdoc.claims, query);
  const { issuerChain: chain, issuerTrust: trust } = mdoc;
  checkTrustedAuthorities(query, { trust, keys: [chain.leafJwk], chain });
  if (mdoc.status) await checkMdocStatus(mdoc.status, checks);
  return {
    queryId: query.id,
    format: 'mso_mdoc',
    // The document signer's URI name when it has one (this service names its issuer URL), else its subject.
    issuer: chain.leaf.uris[0] ?? chain.leaf.subject,
    doctype: mdoc.doctype,
    claims: mdoc.claims,
    holderKey: mdoc.deviceKey,
    expiresAt: mdoc.validUntil,
    trust,
  };
}
