import { calculateJwkThumbprint, compactVerify, importJWK, type JWK } from 'jose';
import { expectCredential, failCredential } from './errors.js';
import type { HttpOptions } from './http.js';
import { checkedUrl } from './http.js';
import { fetchJwtVcIssuerKeys, selectKey } from './issuer-keys.js';
import { applyDisclosures, decodeJwtPart, splitSdJwt } from './sd-jwt.js';
import { type CredentialStatus, fetchCredentialStatus, type StatusReference } from './status-list.js';

export const SD_JWT_VC_TYP = 'dc+sd-jwt';

/** Claims that must stay in the issuer-signed payload, never in a disclosure (SD-JWT VC §3.2.2.2). */
const NEVER_DISCLOSED = ['iss', 'nbf', 'exp', 'cnf', 'vct', 'vct#integrity', 'aka_vcts', 'status'];

export interface VerifySdJwtVcOptions extends HttpOptions {
  /** The public key the credential must be bound to (`cnf.jwk`); one of several when given a list. */
  holderKeys?: JWK[];
  /** The issuer the credential must come from, e.g. the credential_issuer of the offer. */
  expectedIssuer?: string;
  /** The type expected, e.g. the `vct` of the offered configuration. */
  expectedVct?: string;
  /** Also fetch the status list and read the status (default true). */
  checkStatus?: boolean;
  /**
   * Keys for the Status List Token of issuer `iss`. By default the JWT VC Issuer Metadata of `iss`,
   * the same web-based resolution as the credential's (Token Status List §11.3); an ecosystem with
   * another trust mechanism plugs it in here.
   */
  statusListKeys?: (iss: string) => Promise<JWK[]>;
  /** Seconds since the epoch; now when absent. */
  now?: number;
  /** Tolerated clock difference in seconds (default 60). */
  skewSeconds?: number;
}

export interface VerifiedSdJwtVc {
  header: Record<string, unknown>;
  /** The issuer-signed payload as signed, with `_sd` digests. */
  signedPayload: Record<string, unknown>;
  /** The payload with every disclosure applied: what the credential says. */
  claims: Record<string, unknown>;
  disclosed: { name?: string; value: unknown }[];
  holderKey: JWK;
  statusReference?: StatusReference;
  status?: CredentialStatus;
}

/**
 * Verifies a received SD-JWT VC as its holder (SD-JWT VC §3.4, RFC 9901 §7.1): `typ` dc+sd-jwt; the
 * issuer signature with the key of `kid` from the JWT VC Issuer Metadata of `iss`; the disclosure
 * digests; `exp`/`nbf`; `cnf.jwk` equal to one of our keys; and the status from the Token Status List.
 * Throws CredentialVerificationError naming the failed check.
 */
export async function verifySdJwtVc(
  compact: string,
  opts: VerifySdJwtVcOptions = {},
): Promise<VerifiedSdJwtVc> {
  const { issuerJwt, disclosures, keyBindingJwt } = splitSdJwt(compact);
  expectCredential(!keyBindingJwt, 'format', 'an issued credential carries no key binding JWT');
  const header = decodeJwtPart(issuerJwt, 0);
  const signedPayload = decodeJwtPart(issuerJwt, 1);
  expectCredential(header.typ === SD_JWT_VC_TYP, 'typ', `typ is ${String(header.typ)}, not ${SD_JWT_VC_TYP}`);
  expectCredential(header.alg === 'ES256', 'alg', `alg ${String(header.alg)} is not supported`);

  const iss = signedPayload.iss;
  expectCredential(typeof iss === 'string', 'iss', 'the credential has no iss');
  if (opts.expectedIssuer !== undefined)
    expectCredential(iss === opts.expectedIssuer, 'iss', `issued by ${iss}, expected ${opts.expectedIssuer}`);
  checkedUrl(iss, 'iss', opts);
  const issuerKeys = await fetchJwtVcIssuerKeys(iss, opts);
  const issuerKey = selectKey(issuerKeys, header.kid, 'signature', `the JWT VC Issuer Metadata of ${iss}`);
  await compactVerify(issuerJwt, await importJWK(issuerKey, 'ES256'), { algorithms: ['ES256'] }).catch(() =>
    failCredential('signature', 'the issuer signature does not verify with the published key'),
  );

  const { claims, disclosed } = applyDisclosures(signedPayload, disclosures);
  for (const d of disclosed)
    expectCredential(
      !NEVER_DISCLOSED.includes(d.name ?? ''),
      'disclosures',
      `${d.name} must not be disclosable`,
    );
  expectCredential(typeof claims.vct === 'string' && claims.vct, 'vct', 'the credential has no vct');
  if (opts.expectedVct !== undefined)
    expectCredential(
      claims.vct === opts.expectedVct,
      'vct',
      `vct ${claims.vct}, expected ${opts.expectedVct}`,
    );

  const now = opts.now ?? Math.floor(Date.now() / 1000);
  const skew = opts.skewSeconds ?? 60;
  const { exp, nbf, iat } = signedPayload;
  expectCredential(exp === undefined || typeof exp === 'number', 'exp', 'exp is not a number');
  expectCredential(exp === undefined || exp + skew > now, 'exp', 'the credential has expired');
  expectCredential(
    nbf === undefined || (typeof nbf === 'number' && nbf - skew <= now),
    'nbf',
    'not valid yet',
  );
  expectCredential(
    iat === undefined || (typeof iat === 'number' && iat - skew <= now),
    'iat',
    'issued in the future',
  );

  const holderKey = (signedPayload.cnf as { jwk?: JWK } | undefined)?.jwk;
  expectCredential(holderKey && typeof holderKey === 'object', 'cnf', 'the credential has no cnf.jwk');
  expectCredential(!('d' in holderKey), 'cnf', 'cnf.jwk is a private key');
  if (opts.holderKeys) {
    const bound = await calculateJwkThumbprint(holderKey);
    const ours = await Promise.all(opts.holderKeys.map((k) => calculateJwkThumbprint(k)));
    expectCredential(ours.includes(bound), 'cnf', 'the credential is bound to a key that is not ours');
  }

  const statusReference = readStatusReference(signedPayload);
  const status =
    statusReference && opts.checkStatus !== false
      ? await fetchCredentialStatus(statusReference, iss, {
          ...opts,
          now,
          ...(opts.statusListKeys ? { keysFor: opts.statusListKeys } : {}),
        })
      : undefined;
  return {
    header,
    signedPayload,
    claims,
    disclosed,
    holderKey,
    ...(statusReference ? { statusReference } : {}),
    ...(status ? { status } : {}),
  };
}

/** `status.status_list { idx, uri }` of a referenced token (Token Status List §6.2), if any. */
export function readStatusReference(payload: Record<string, unknown>): StatusReference | undefined {
  const ref = (payload.status as { status_list?: { idx?: unknown; uri?: unknown } } | undefined)?.status_list;
  if (ref === undefined) return undefined;
  expectCredential(
    Number.isInteger(ref.idx) && typeof ref.uri === 'string',
    'status',
    'malformed status_list',
  );
  return { idx: ref.idx as number, uri: ref.uri };
}
