import { createHash, type KeyObject, randomBytes, sign, verify } from 'node:crypto';

/**
 * The least code that issues and checks an SD-JWT VC with node:crypto alone: compact ES256 JWS,
 * salted disclosures, digests and sd_hash. The minimal pipeline is built on it, so that its figures
 * are the cost of the cryptography and the protocol, not of a library.
 */
export const MINIMAL_ISSUER = 'http://minimal.bench';

const b64 = (data: string | Buffer) => Buffer.from(data).toString('base64url');
const json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));
export const sha256b64 = (data: string) => createHash('sha256').update(data).digest('base64url');

export function signJws(key: KeyObject, header: object, payload: object): string {
  const input = `${b64(JSON.stringify({ ...header, alg: 'ES256' }))}.${b64(JSON.stringify(payload))}`;
  return `${input}.${b64(sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }))}`;
}

/** The header and payload of a JWS whose ES256 signature verifies with `key`, else undefined. */
export function verifyJws(
  compact: string,
  key: KeyObject | ((header: Record<string, unknown>) => KeyObject),
) {
  const [h = '', p = '', s = ''] = compact.split('.');
  const header = json(h);
  if (header.alg !== 'ES256') return undefined;
  const k = typeof key === 'function' ? key(header) : key;
  const ok = verify(
    'sha256',
    Buffer.from(`${h}.${p}`),
    { key: k, dsaEncoding: 'ieee-p1363' },
    Buffer.from(s, 'base64url'),
  );
  return ok ? { header, payload: json(p) } : undefined;
}

const salt = () => randomBytes(16).toString('base64url');

/**
 * Claims with `mandatee`'s fields and each `power` element made selectively disclosable, as the
 * built-in employee configuration does. Returns the payload with digests and the disclosures.
 */
export function discloseEmployee(claims: {
  mandatee: Record<string, unknown>;
  power: unknown[];
  [k: string]: unknown;
}) {
  const disclosures: string[] = [];
  const digestOf = (value: unknown[]) => {
    const d = b64(JSON.stringify(value));
    disclosures.push(d);
    return sha256b64(d);
  };
  const mandatee = { _sd: Object.entries(claims.mandatee).map(([k, v]) => digestOf([salt(), k, v])) };
  const power = claims.power.map((v) => ({ '...': digestOf([salt(), v]) }));
  return { payload: { ...claims, mandatee, power, _sd_alg: 'sha-256' }, disclosures };
}

/** Every digest an issuer-signed payload commits to (`_sd` entries and array `...` elements). */
export function digestsIn(value: unknown, into = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) digestsIn(v, into);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k === '_sd' && Array.isArray(v)) for (const d of v) into.add(String(d));
      else if (k === '...') into.add(String(v));
      else digestsIn(v, into);
    }
  }
  return into;
}
