import type { JWK } from 'jose';
import { isObject } from './jws.js';
import { check, reject } from './presentation-error.js';
import type { TrustedIssuerKeys, VerificationContext } from './types.js';

/**
 * The keys of the credential's issuer from `ctx.trustedIssuers`, with where they come from (a plain
 * array: configured `jwks`). No keys (or a failure to get them) means the issuer is not trusted by
 * keys: `untrusted_issuer`.
 */
export async function trustedIssuerKeys(
  iss: string,
  trustedIssuers: VerificationContext['trustedIssuers'],
): Promise<TrustedIssuerKeys> {
  let found: Awaited<ReturnType<typeof trustedIssuers>>;
  try {
    found = await trustedIssuers(iss);
  } catch (e) {
    // The cause says why (a fetch that failed, a document that does not fit): the integrator who
    // trusted the issuer needs it to mend the registration or the issuer's metadata.
    const why = e instanceof Error ? e.message : String(e);
    reject('untrusted_issuer', `the keys of trusted issuer ${iss} cannot be resolved: ${why}`, e);
  }
  const resolved: TrustedIssuerKeys | undefined = Array.isArray(found)
    ? { keys: found, method: 'jwks' }
    : found;
  check(
    resolved && Array.isArray(resolved.keys) && resolved.keys.length > 0,
    'untrusted_issuer',
    `issuer ${iss} is not trusted`,
  );
  return resolved;
}

/**
 * Where the JWT VC Issuer Metadata of `iss` lives (SD-JWT VC, "JWT VC Issuer Metadata Request"): `/.well-known/jwt-vc-issuer`
 * inserted between the host and the path of the issuer identifier.
 */
export function jwtVcIssuerMetadataUrl(iss: string): string {
  const url = new URL(iss);
  const path = url.pathname === '/' ? '' : url.pathname.replace(/\/+$/, '');
  return `${url.origin}/.well-known/jwt-vc-issuer${path}`;
}

export interface MetadataResolverOptions {
  /** How long keys are reused before the metadata is fetched again, in seconds. Default 300. */
  cacheSeconds?: number;
  /** The clock, for tests. */
  now?: () => Date;
}

/**
 * A `trustedIssuers` for an allow-list of issuer identifiers (exact strings, HTTPS in production):
 * their keys come from their JWT VC Issuer Metadata (`jwks` inline or `jwks_uri`, never both; the
 * document's `issuer` must equal `iss`), fetched with `fetchJson` and cached; any other issuer is
 * untrusted. `fetchJson` should refuse redirects to other hosts and bound the response size.
 */
export function trustedIssuersFromMetadata(
  allowed: readonly string[],
  fetchJson: (url: string) => Promise<unknown>,
  options: MetadataResolverOptions = {},
): (iss: string) => Promise<JWK[] | undefined> {
  const ttlMs = (options.cacheSeconds ?? 300) * 1000;
  const now = () => (options.now?.() ?? new Date()).getTime();
  const cache = new Map<string, { at: number; keys: Promise<JWK[]> }>();
  const load = async (iss: string): Promise<JWK[]> => {
    const metadata = await fetchJson(jwtVcIssuerMetadataUrl(iss));
    if (!isObject(metadata) || metadata.issuer !== iss)
      throw new Error(`the metadata of ${iss} names another issuer`);
    if ((metadata.jwks === undefined) === (metadata.jwks_uri === undefined))
      throw new Error(`the metadata of ${iss} needs exactly one of jwks and jwks_uri`);
    const set = metadata.jwks ?? (await fetchJson(String(metadata.jwks_uri)));
    const keys = isObject(set) ? set.keys : undefined;
    if (!Array.isArray(keys)) throw new Error(`the JWK set of ${iss} has no keys`);
    return keys.filter(isObject) as JWK[];
  };
  return async (iss) => {
    if (!allowed.includes(iss)) return undefined;
    const hit = cache.get(iss);
    if (hit && now() - hit.at < ttlMs) return hit.keys;
    const keys = load(iss);
    cache.set(iss, { at: now(), keys });
    // A failed fetch is not remembered: the next presentation tries again.
    keys.catch(() => cache.get(iss)?.keys === keys && cache.delete(iss));
    return keys;
  };
}
