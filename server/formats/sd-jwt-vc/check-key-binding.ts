import type { JWK } from 'jose';
import { checkProfileAlg } from '../../oid4vp/verification/check-haip-profile.js';
import { checkTransactionBinding } from '../../oid4vp/verification/check-transaction-binding.js';
import { decodeJws, verifyWithKey } from '../../oid4vp/verification/jws.js';
import { check } from '../../oid4vp/verification/presentation-error.js';
import type { Checks, TransactionDataHashes } from '../../oid4vp/verification/types.js';
import { sdDigest } from './sd-jwt.js';

export interface KeyBindingInput {
  /** The compact KB-JWT, the last part of the presentation. */
  keyBindingJwt: string;
  /** `cnf.jwk` of the credential. */
  holderKey: JWK;
  /** The presented SD-JWT up to and including the last `~`. */
  sdJwt: string;
  /** `_sd_alg` of the credential: also the `sd_hash` algorithm (RFC 9901 §4.3.1). */
  sdAlg: string;
}

/**
 * Verifies the Key Binding JWT of an SD-JWT presentation (RFC 9901 §7.3): `typ` kb+jwt, signed by
 * the credential's `cnf.jwk`, `sd_hash` over exactly the SD-JWT and disclosures it came with, and the
 * transaction binding above. (@sd-jwt checks neither `aud` nor `iat` freshness; this does both.)
 */
export async function checkKeyBinding(
  input: KeyBindingInput,
  checks: Checks,
): Promise<TransactionDataHashes | undefined> {
  const kb = decodeJws(input.keyBindingJwt, 'the KB-JWT');
  check(kb.header.typ === 'kb+jwt', 'malformed', `the KB-JWT has typ ${String(kb.header.typ)}, not kb+jwt`);
  checkProfileAlg(kb, checks, 'the KB-JWT');
  await verifyWithKey(kb, input.holderKey, 'the KB-JWT (with the holder key cnf.jwk)');
  check(
    typeof kb.payload.sd_hash === 'string' && kb.payload.sd_hash === sdDigest(input.sdAlg, input.sdJwt),
    'sd_hash_mismatch',
    'the KB-JWT sd_hash is not the digest of the presented SD-JWT',
  );
  checkTransactionBinding(kb.payload, checks, 'the KB-JWT');
  // OID4VP 1.0 B.3.3: the hashes of the transaction data the holder authorized, under its signature.
  const { transaction_data_hashes: hashes, transaction_data_hashes_alg: alg } = kb.payload;
  if (hashes === undefined) return undefined;
  check(
    Array.isArray(hashes) && hashes.length > 0 && hashes.every((h) => typeof h === 'string'),
    'malformed',
    'the KB-JWT transaction_data_hashes is not a non-empty array of strings',
  );
  check(
    alg === undefined || typeof alg === 'string',
    'malformed',
    'the KB-JWT transaction_data_hashes_alg is not a string',
  );
  return { hashes: hashes as string[], ...(alg ? { alg: alg as string } : {}) };
}
