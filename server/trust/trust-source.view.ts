import { sourceStatus } from './source-status.js';
import { parsedCertificate } from './trust.js';
import type { TrustSourceRow } from './trust-source.entity.js';

/** The API's view of a source: its pins named by SHA-256 and subject, and its status. */
export function trustSourceView(row: TrustSourceRow, graceSeconds: number) {
  return {
    id: row.id,
    type: row.type,
    url: row.url,
    signer_certificates: row.signerCertificates.flatMap((der) => {
      const cert = parsedCertificate(der);
      return cert
        ? [
            {
              sha256: cert.sha256,
              subject: cert.subject,
              not_after: new Date(cert.notAfter * 1000).toISOString(),
            },
          ]
        : [];
    }),
    service_types: row.serviceTypes,
    ...(row.vctValues ? { vct_values: row.vctValues } : {}),
    ...(row.doctypeValues ? { doctype_values: row.doctypeValues } : {}),
    ...(row.refreshSeconds ? { refresh_seconds: row.refreshSeconds } : {}),
    status: sourceStatus(row, graceSeconds),
    created_at: row.createdAt.toISOString(),
  };
}
