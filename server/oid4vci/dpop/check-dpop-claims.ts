import { createHash } from 'node:crypto';
import type { JWTPayload } from 'jose';
import { sameSecret } from '../../tenants/token-secret.js';
import { invalidDpopProof } from './dpop-errors.js';

/** How far a proof's `iat` may lie from our clock, either way (RFC 9449 section 11.1). */
export const DPOP_IAT_WINDOW_SECONDS = 60;

/** The request a proof must be for: method, URI without query and fragment, and the access token. */
export interface DpopRequest {
  method: string;
  url: string;
  accessToken?: string;
}

/** An absolute URI without its query and fragment, as RFC 9449 section 4.3 compares `htu`. */
export function normalizeHtu(uri: string): string | undefined {
  try {
    const url = new URL(uri);
    url.search = '';
    url.hash = '';
    return url.href;
  } catch {
    return undefined;
  }
}

/**
 * RFC 9449 section 4.3 checks 8 to 12 (the nonce is the caller's): `jti`, `htm` is the request's
 * method, `htu` its URI (query and fragment ignored), `iat` within ±60 s of now, and with an access
 * token `ath` is its base64url SHA-256. Returns the `jti`.
 */
export function checkDpopClaims(payload: JWTPayload, request: DpopRequest, now: number): string {
  const { jti, htm, htu, iat } = payload;
  if (typeof jti !== 'string' || !jti || jti.length > 256)
    throw invalidDpopProof('DPoP proof must have a jti');
  if (htm !== request.method) throw invalidDpopProof(`DPoP proof htm must be ${request.method}`);
  if (typeof htu !== 'string' || normalizeHtu(htu) !== normalizeHtu(request.url))
    throw invalidDpopProof(`DPoP proof htu must be ${normalizeHtu(request.url)}`);
  if (typeof iat !== 'number') throw invalidDpopProof('DPoP proof must have iat');
  if (Math.abs(iat - now) > DPOP_IAT_WINDOW_SECONDS)
    throw invalidDpopProof(`DPoP proof iat must be within ${DPOP_IAT_WINDOW_SECONDS} seconds of now`);
  if (request.accessToken !== undefined) {
    const ath = createHash('sha256').update(request.accessToken).digest('base64url');
    if (typeof payload.ath !== 'string')
      throw invalidDpopProof('DPoP proof must carry ath for the access token');
    if (!sameSecret(payload.ath, ath))
      throw invalidDpopProof('DPoP proof ath does not match the access token');
  }
  return jti;
}
