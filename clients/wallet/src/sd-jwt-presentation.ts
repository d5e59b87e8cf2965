import { createHash } from 'node:crypto';
import { base64url } from 'jose';
import { WalletError } from './errors.js';
import type { HolderCrypto } from './holder-crypto.js';
import { splitSdJwt } from './sd-jwt.js';
import type { TransactionDataHashes } from './transaction-data-hashes.js';

export const KB_JWT_TYP = 'kb+jwt';

export interface SdJwtPresentationInput {
  /** The SD-JWT VC as issued, with all its disclosures. */
  credential: string;
  /** The encoded disclosures to reveal: a subset of the credential's. */
  disclosures: string[];
  /** The HolderCrypto key the credential is bound to (`cnf.jwk`). */
  holderKeyId: string;
  /** The `nonce` of the Authorization Request. */
  nonce: string;
  /** The full Client Identifier, prefix included (OID4VP §14.10). */
  audience: string;
  /** Seconds since the epoch; now when absent. */
  issuedAt?: number;
  /** The transaction data this presentation authorizes, as top-level KB-JWT claims (B.3.3). */
  transactionDataHashes?: TransactionDataHashes;
  /** Test only: change the value of the first disclosure, so its digest no longer matches. */
  tamperDisclosure?: boolean;
  /** Test only: present the SD-JWT without its Key Binding JWT. */
  skipKeyBinding?: boolean;
}

/** `sd_hash`: base64url(SHA-256(ASCII of the SD-JWT up to and including its last `~`)), RFC 9901 §4.3.1. */
export const sdHash = (sdJwt: string) =>
  base64url.encode(createHash('sha256').update(sdJwt, 'ascii').digest());

const encodeJson = (v: unknown) => base64url.encode(JSON.stringify(v));

/**
 * An SD-JWT+KB presentation (RFC 9901 §4.3, OID4VP Appendix B.3.6): the issuer-signed JWT, the chosen
 * disclosures, and a KB-JWT with `typ` kb+jwt, `iat`, `aud` (the client_id), `nonce` and `sd_hash`
 * over what precedes it, plus `transaction_data_hashes` and its `_alg` when it authorizes any
 * transaction data (B.3.3). The JWS is assembled here so that HolderCrypto only signs bytes.
 */
export async function createSdJwtPresentation(
  input: SdJwtPresentationInput,
  crypto: HolderCrypto,
): Promise<string> {
  const { issuerJwt, disclosures: issued } = splitSdJwt(input.credential);
  if (!input.disclosures.every((d) => issued.includes(d)))
    throw new WalletError('a disclosure to present is not one of the credential');
  const disclosures = input.tamperDisclosure ? tamperFirst(input.disclosures) : input.disclosures;
  const sdJwt = `${[issuerJwt, ...disclosures].join('~')}~`;
  if (input.skipKeyBinding) return sdJwt;
  const header = { typ: KB_JWT_TYP, alg: 'ES256' };
  const payload = {
    iat: input.issuedAt ?? Math.floor(Date.now() / 1000),
    aud: input.audience,
    nonce: input.nonce,
    sd_hash: sdHash(sdJwt),
    ...input.transactionDataHashes,
  };
  const signingInput = `${encodeJson(header)}.${encodeJson(payload)}`;
  const signature = await crypto.sign(input.holderKeyId, new TextEncoder().encode(signingInput));
  return `${sdJwt}${signingInput}.${base64url.encode(signature)}`;
}

/**
 * Replaces the value of the first disclosure and re-encodes it. The KB-JWT is then computed over the
 * altered SD-JWT, so only the verifier's digest check (RFC 9901 §7.1) can catch it, not sd_hash.
 */
function tamperFirst(disclosures: string[]): string[] {
  const [first, ...rest] = disclosures;
  if (!first) throw new WalletError('there is no disclosure to tamper with');
  const parts = JSON.parse(new TextDecoder().decode(base64url.decode(first))) as unknown[];
  parts[parts.length - 1] = 'tampered';
  return [encodeJson(parts), ...rest];
}
