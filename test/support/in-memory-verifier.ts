import { createHash } from 'node:crypto';
import { compactDecrypt, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { certificate } from './issuer-x509.js';

/**
 * A verifier that lives in the test, for the wallet's unit tests: an x509_hash client (a
 * self-signed certificate whose hash is the client_id), Request Objects signed with its key, a
 * response encryption key, and a fetch that serves the request_uri and records what is POSTed to
 * the response_uri. No server is started.
 */
export const REQUEST_URI = 'https://verifier.test/oid4vp/auth-request/m1';
export const RESPONSE_URI = 'https://verifier.test/oid4vp/response/m1';
export const REDIRECT = 'https://integrator.test/cb?code=c1';
export const NONCE = 'n-mdoc-1';

export async function inMemoryVerifier() {
  const identity = await certificate({ subject: 'CN=Test Verifier' });
  const der = Buffer.from(identity.cert.rawData);
  const clientId = `x509_hash:${createHash('sha256').update(der).digest('base64url')}`;
  const encryptionKeys = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
  const encryptionJwk = {
    ...(await exportJWK(encryptionKeys.publicKey)),
    kid: 'enc-1',
    use: 'enc',
    alg: 'ECDH-ES',
  };
  const link = `openid4vp://?client_id=${encodeURIComponent(clientId)}&request_uri=${encodeURIComponent(REQUEST_URI)}`;

  /** A signed Request Object for `dcql_query`; `claims` override members (client_metadata too). */
  const requestObject = (dcqlQuery: unknown, claims: Record<string, unknown> = {}) =>
    new SignJWT({
      client_id: clientId,
      response_type: 'vp_token',
      response_mode: 'direct_post',
      response_uri: RESPONSE_URI,
      nonce: NONCE,
      state: 'st-1',
      dcql_query: dcqlQuery,
      client_metadata: {
        vp_formats_supported: {
          mso_mdoc: { issuerauth_alg_values: [-7, -9], deviceauth_alg_values: [-7, -9] },
        },
        jwks: { keys: [encryptionJwk] },
      },
      aud: 'https://self-issued.me/v2',
      ...claims,
    })
      .setProtectedHeader({ typ: 'oauth-authz-req+jwt', alg: 'ES256', x5c: [identity.base64] })
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(identity.keys.privateKey);

  /** Serves `requestJwt` at the request_uri; `posted` holds every form body the response_uri got. */
  function serve(requestJwt: string) {
    const posted: Record<string, string>[] = [];
    const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input instanceof Request ? input.url : input);
      if (url === REQUEST_URI)
        return new Response(requestJwt, { headers: { 'content-type': 'application/oauth-authz-req+jwt' } });
      if (url === RESPONSE_URI && init?.method === 'POST') {
        posted.push(Object.fromEntries(new URLSearchParams(String(init.body))));
        return Response.json({ redirect_uri: REDIRECT });
      }
      return new Response('not found', { status: 404 });
    }) as typeof fetch;
    return { fetch: fetchImpl, posted };
  }

  /** The parameters of an encrypted (direct_post.jwt, dc_api.jwt) response. */
  const decrypt = async (jwe: string) =>
    JSON.parse(new TextDecoder().decode((await compactDecrypt(jwe, encryptionKeys.privateKey)).plaintext));

  return { clientId, link, encryptionJwk, requestObject, serve, decrypt };
}
