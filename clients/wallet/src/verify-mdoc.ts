import { verify, type X509Certificate } from 'node:crypto';
import { cborDecode, IssuerSigned } from '@owf/mdoc';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { expectCredential, failCredential, WalletError } from './errors.js';
import type { HttpOptions } from './http.js';
import { jsonSafe, mdocContext } from './mdoc-values.js';
import { type CredentialStatus, fetchCredentialStatus, type StatusReference } from './status-list.js';
import { checkX5cChain, type X5cCheckOptions } from './x5c-chain.js';

export interface VerifyMdocOptions extends HttpOptions, X5cCheckOptions {
  /** The Credential Issuer it came from: its JWT VC Issuer Metadata names the status list keys. */
  credentialIssuer: string;
  /** The public key the MSO must bind it to (deviceKeyInfo); one of several when given a list. */
  holderKeys?: JWK[];
  /** The doctype expected, e.g. the `doctype` of the offered configuration. */
  expectedDoctype?: string;
  /** Also fetch the status list and read the status (default true). */
  checkStatus?: boolean;
  statusListKeys?: (iss: string) => Promise<JWK[]>;
  /** Tolerated clock difference in seconds (default 60). */
  skewSeconds?: number;
}

export interface VerifiedMdoc {
  doctype: string;
  /** Namespace → data element → value, JSON-safe. */
  claims: Record<string, Record<string, unknown>>;
  deviceKey: JWK;
  /** The document signer: the x5chain's leaf, whose key signed the MSO. */
  documentSigner: X509Certificate;
  validUntil: Date;
  statusReference?: StatusReference;
  status?: CredentialStatus;
}

/**
 * Verifies a received mdoc (the base64url IssuerSigned of OID4VCI Appendix A.2.4) as its holder,
 * after ISO 18013-5 9.3.1: the IssuerAuth's x5chain is a valid chain of P-256 certificates (ending
 * in `trustAnchors` when given, as for a Request Object's x5c), its leaf's key verifies the
 * signature (ES256 or ESP256), every data element's digest is in the MSO, the MSO's docType,
 * validity and device key are as expected, and the status is read from its status list.
 * Throws CredentialVerificationError naming the failed check.
 */
export async function verifyMdoc(credential: string, opts: VerifyMdocOptions): Promise<VerifiedMdoc> {
  let issuerSigned: IssuerSigned;
  try {
    issuerSigned = IssuerSigned.fromEncodedForOid4Vci(credential);
  } catch (e) {
    failCredential('format', `not a base64url CBOR IssuerSigned (${(e as Error).message.slice(0, 100)})`);
  }
  const auth = issuerSigned.issuerAuth;
  const alg = auth.protectedHeaders.headers?.get(1);
  expectCredential(alg === -7 || alg === -9, 'alg', `IssuerAuth alg ${String(alg)} is not ES256 or ESP256`);
  const x5chain = auth.x5chain;
  expectCredential(x5chain?.length, 'x5chain', 'the IssuerAuth has no x5chain');
  let documentSigner: X509Certificate;
  try {
    const base64 = x5chain.map((der) => Buffer.from(der).toString('base64'));
    documentSigner = checkX5cChain(base64, opts, 'x5chain')[0] as X509Certificate;
  } catch (e) {
    if (e instanceof WalletError) failCredential('x5chain', e.message);
    throw e;
  }
  const signed = verify(
    'sha256',
    auth.toBeSigned,
    { key: documentSigner.publicKey, dsaEncoding: 'ieee-p1363' },
    auth.signature,
  );
  expectCredential(signed, 'signature', 'the IssuerAuth does not verify with the document signer key');

  const mso = auth.mobileSecurityObject;
  const claims: Record<string, Record<string, unknown>> = {};
  for (const [namespace, items] of issuerSigned.issuerNamespaces?.issuerNamespaces ?? new Map()) {
    claims[namespace] = {};
    for (const item of items) {
      const intact = await item.isValid(namespace, auth, mdocContext());
      expectCredential(intact, 'digest', `${namespace}/${item.elementIdentifier} does not match its digest`);
      claims[namespace][item.elementIdentifier] = jsonSafe(item.elementValue);
    }
  }
  if (opts.expectedDoctype !== undefined)
    expectCredential(
      mso.docType === opts.expectedDoctype,
      'doctype',
      `doctype ${mso.docType}, expected ${opts.expectedDoctype}`,
    );
  const now = (opts.now ?? Math.floor(Date.now() / 1000)) * 1000;
  const skew = (opts.skewSeconds ?? 60) * 1000;
  const { signed: signedAt, validFrom, validUntil } = mso.validityInfo;
  expectCredential(validFrom.getTime() - skew <= now, 'validity', 'not valid yet');
  expectCredential(validUntil.getTime() + skew > now, 'validity', 'the mdoc has expired');
  expectCredential(
    signedAt >= documentSigner.validFromDate && signedAt <= documentSigner.validToDate,
    'validity',
    'the MSO was signed outside the validity of its document signer certificate',
  );

  const { kty, crv, x, y } = mso.deviceKeyInfo.deviceKey.jwk as JWK;
  expectCredential(kty === 'EC' && crv === 'P-256' && x && y, 'deviceKey', 'the device key is not P-256');
  const deviceKey: JWK = { kty, crv, x, y };
  if (opts.holderKeys) {
    const bound = await calculateJwkThumbprint(deviceKey);
    const ours = await Promise.all(opts.holderKeys.map((k) => calculateJwkThumbprint(k)));
    expectCredential(ours.includes(bound), 'deviceKey', 'the mdoc is bound to a key that is not ours');
  }

  const statusReference = readMsoStatus(auth.payload as Uint8Array);
  const status =
    statusReference && opts.checkStatus !== false
      ? await fetchCredentialStatus(statusReference, opts.credentialIssuer, {
          ...opts,
          preferCwt: true,
          ...(opts.statusListKeys ? { keysFor: opts.statusListKeys } : {}),
        })
      : undefined;
  return {
    doctype: mso.docType,
    claims,
    deviceKey,
    documentSigner,
    validUntil,
    ...(statusReference ? { statusReference } : {}),
    ...(status ? { status } : {}),
  };
}

/** The MSO's `status: { status_list: { idx, uri } }` (ISO 18013-5 second edition), if any. */
function readMsoStatus(msoBytes: Uint8Array): StatusReference | undefined {
  const mso = cborDecode(msoBytes) as Map<string, unknown>;
  const status = mso.get('status');
  if (status === undefined) return undefined;
  const list = status instanceof Map ? status.get('status_list') : undefined;
  const idx = list instanceof Map ? list.get('idx') : undefined;
  const uri = list instanceof Map ? list.get('uri') : undefined;
  expectCredential(Number.isInteger(idx) && typeof uri === 'string', 'status', 'malformed status_list');
  return { idx: idx as number, uri };
}
