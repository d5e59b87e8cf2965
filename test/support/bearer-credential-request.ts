import { holderKey } from './proof-jwt.js';

/**
 * A credential request as a wallet sends it with a Bearer access token: a fresh c_nonce, a new holder
 * key and its jwt proof, for `configurationId`. The answer is returned as it came.
 */
export async function bearerCredentialRequest(
  baseUrl: string,
  issuer: string,
  accessToken: string,
  configurationId: string,
): Promise<Response> {
  const nonce = await fetch(`${baseUrl}/oid4vci/v1/nonce`, { method: 'POST' });
  const { c_nonce } = (await nonce.json()) as { c_nonce: string };
  const key = await holderKey();
  return fetch(`${baseUrl}/oid4vci/v1/credential`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${accessToken}` },
    body: JSON.stringify({
      credential_configuration_id: configurationId,
      proofs: { jwt: [await key.proof({ aud: issuer, nonce: c_nonce })] },
    }),
  });
}
