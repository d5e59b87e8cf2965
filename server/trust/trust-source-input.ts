import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { TrustSourceInput } from '../../contract/admin/trust-source.js';
import { validationError } from '../domain-errors.js';
import { certificatesFromPem, parseCertificate } from '../keys/x509-certificate.js';
import type { TrustSourceRow } from './trust-source.entity.js';

const refuse = (field: string, message: string) => validationError([{ field, message }]);

/**
 * The pinned signer certificates of a new source: each PEM one certificate, parsing, valid now (an
 * expired pin could never validate a list; saying so now beats a source that never works).
 */
function pinnedCertificates(pems: readonly string[], now: Date): string[] {
  return pems.map((pem, i) => {
    const field = `signer_certificates[${i}]`;
    let blocks: string[];
    try {
      blocks = certificatesFromPem(pem);
    } catch (e) {
      throw refuse(field, `not PEM: ${(e as Error).message}`);
    }
    if (blocks.length !== 1) throw refuse(field, `expected one certificate, got ${blocks.length}`);
    let cert: ReturnType<typeof parseCertificate>;
    try {
      cert = parseCertificate(blocks[0] as string, 'the certificate');
    } catch (e) {
      throw refuse(field, (e as Error).message);
    }
    if (cert.notAfter * 1000 < now.getTime()) throw refuse(field, `${cert.subject} has expired`);
    return cert.base64;
  });
}

/** A new source's row from the operator's request; not fetched yet (due at once). */
export function trustSourceRow(
  tenantId: string,
  input: z.infer<typeof TrustSourceInput>,
  now = new Date(),
): TrustSourceRow {
  const url = new URL(input.url);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw refuse('url', 'an http(s) URL');
  return {
    id: randomUUID(),
    tenantId,
    type: input.type,
    url: input.url,
    signerCertificates: pinnedCertificates(input.signer_certificates, now),
    serviceTypes: [...new Set(input.service_types)],
    vctValues: input.vct_values ?? null,
    doctypeValues: input.doctype_values ?? null,
    refreshSeconds: input.refresh_seconds ?? null,
    createdAt: now,
    listed: null,
    fetchedAt: null,
    nextUpdate: null,
    error: null,
    nextFetchAt: now,
  };
}
