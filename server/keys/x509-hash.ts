import { createHash } from 'node:crypto';

/** `x509_hash` client identifier: base64url SHA-256 of the DER certificate (OID4VP section 5.9.3). */
export const x509Hash = (certificateBase64: string) =>
  createHash('sha256').update(Buffer.from(certificateBase64, 'base64')).digest('base64url');
