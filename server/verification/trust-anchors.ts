import type { EntityManager } from '@mikro-orm/postgresql';
import { frozenRow } from '../cache/frozen-row.js';
import { cached, invalidate } from '../cache/node-caches.js';
import { validationError } from '../domain-errors.js';
import {
  certificatesFromPem,
  hasKeyUsage,
  KeyUsage,
  keyIdentifierOf,
  parseCertificate,
  pemOf,
} from '../keys/x509-certificate.js';
import { tenantTrustChanged } from '../trust/tenant-trust.js';
import { TrustAnchor } from './trust-anchor.entity.js';

const refuse = (message: string) => validationError([{ field: 'certificate', message }]);

/**
 * A trust anchor from the PEM an operator sends: exactly one certificate, a CA (basicConstraints cA,
 * keyCertSign when keyUsage is present), valid now. An expired or non-CA certificate could never
 * validate a chain, so it is refused here with the reason rather than silently never matching.
 */
export async function trustAnchorFromPem(
  tenantId: string,
  pem: string,
  now = new Date(),
): Promise<TrustAnchor> {
  let blocks: string[];
  try {
    blocks = certificatesFromPem(pem);
  } catch (e) {
    throw refuse(`not PEM: ${(e as Error).message || 'expected a -----BEGIN CERTIFICATE----- block'}`);
  }
  if (blocks.length !== 1) throw refuse(`expected one certificate, got ${blocks.length}`);
  let cert: ReturnType<typeof parseCertificate>;
  try {
    cert = parseCertificate(blocks[0] as string, 'the certificate');
  } catch (e) {
    throw refuse((e as Error).message);
  }
  if (cert.ca !== true) throw refuse(`${cert.subject} is not a CA certificate (basicConstraints cA)`);
  if (!hasKeyUsage(cert, KeyUsage.keyCertSign))
    throw refuse(`${cert.subject} may not sign certificates (keyUsage lacks keyCertSign)`);
  const seconds = now.getTime() / 1000;
  if (cert.notAfter < seconds) throw refuse(`${cert.subject} has expired`);
  if (cert.notBefore > seconds) throw refuse(`${cert.subject} is not valid yet`);
  return {
    tenantId,
    sha256: cert.sha256,
    subject: cert.subject,
    keyIdentifier: await keyIdentifierOf(cert),
    certificate: cert.base64,
    notBefore: new Date(cert.notBefore * 1000),
    notAfter: new Date(cert.notAfter * 1000),
    createdAt: now,
  };
}

/** The API's view of an anchor. */
export const trustAnchorView = (a: TrustAnchor) => ({
  sha256: a.sha256,
  subject: a.subject,
  key_identifier: a.keyIdentifier,
  not_before: a.notBefore.toISOString(),
  not_after: a.notAfter.toISOString(),
  certificate: pemOf(a.certificate),
});

/**
 * The tenant's anchors, oldest first. Every presentation (and every session restricted to them or
 * under the HAIP profile) reads them, and they change only through the admin API: they come from
 * the node's cache as frozen rows, and each change invalidates them on every node.
 */
export const listTrustAnchors = (em: EntityManager, tenantId: string): Promise<readonly TrustAnchor[]> =>
  cached(em, TRUST_ANCHORS, tenantId, async () => {
    const rows = await em.find(
      TrustAnchor,
      { tenantId },
      { orderBy: { createdAt: 'asc', sha256: 'asc' }, disableIdentityMap: true },
    );
    return Object.freeze(rows.map(frozenRow));
  });

const TRUST_ANCHORS = 'trust-anchors';

/** Call in the transaction that adds or removes one of the tenant's anchors. */
export async function trustAnchorsChanged(tx: EntityManager, tenantId: string) {
  await invalidate(tx, TRUST_ANCHORS, tenantId);
  await tenantTrustChanged(tx, tenantId);
}

/**
 * The session's DCQL query restricted to the tenant's trust anchors (the integrator asked with
 * `restrict_to_trust_anchors`): each credential query that names no `trusted_authorities` of its own
 * gets an `aki` entry with the anchors' key identifiers, which the wallet uses to choose and the
 * verifier enforces on the answer. A tenant without anchors cannot be asked this (400).
 */
export async function restrictToTrustAnchors(
  em: EntityManager,
  tenantId: string,
  query: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const values = [...new Set((await listTrustAnchors(em, tenantId)).map((a) => a.keyIdentifier))];
  if (values.length === 0)
    throw validationError([
      { field: 'restrict_to_trust_anchors', message: 'this tenant has no trust anchors to restrict to' },
    ]);
  const credentials = (query.credentials as Record<string, unknown>[]).map((c) =>
    c.trusted_authorities ? c : { ...c, trusted_authorities: [{ type: 'aki', values }] },
  );
  return { ...query, credentials };
}
