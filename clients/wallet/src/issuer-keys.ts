import type { JWK } from 'jose';
import { CredentialVerificationError, expectCredential } from './errors.js';
import { getJson, type HttpOptions } from './http.js';
import { wellKnownUrl } from './well-known.js';

/**
 * The public keys of an SD-JWT VC issuer from its JWT VC Issuer Metadata (SD-JWT VC §5): the
 * document at `/.well-known/jwt-vc-issuer` + path of `iss`, whose `issuer` must equal `iss`, with
 * its keys inline (`jwks`) or by reference (`jwks_uri`), never both.
 */
export async function fetchJwtVcIssuerKeys(iss: string, http: HttpOptions = {}): Promise<JWK[]> {
  const metadata = await getJson(wellKnownUrl(iss, 'jwt-vc-issuer'), 'JWT VC issuer metadata', http).catch(
    (e) => {
      throw new CredentialVerificationError('issuer key', (e as Error).message);
    },
  );
  expectCredential(
    metadata.issuer === iss,
    'issuer key',
    `metadata names ${String(metadata.issuer)}, not ${iss}`,
  );
  const inline = metadata.jwks;
  const uri = metadata.jwks_uri;
  expectCredential(
    (inline === undefined) !== (uri === undefined),
    'issuer key',
    'need exactly one of jwks, jwks_uri',
  );
  const set = inline ?? (await getJson(String(uri), 'issuer JWK set', http));
  const keys = (set as { keys?: unknown }).keys;
  expectCredential(Array.isArray(keys), 'issuer key', 'the JWK set has no keys array');
  return keys as JWK[];
}

/** The key a JWS names with `kid`; without a `kid` only a set of exactly one key is unambiguous. */
export function selectKey(keys: JWK[], kid: unknown, check: string, where = 'the published keys'): JWK {
  if (typeof kid === 'string') {
    const key = keys.find((k) => k.kid === kid);
    expectCredential(key, check, `no key with kid ${kid} in ${where}`);
    return key;
  }
  expectCredential(keys.length === 1, check, 'the JWS has no kid and the issuer publishes several keys');
  return keys[0] as JWK;
}
