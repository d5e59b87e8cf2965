import { CompactEncrypt, exportJWK, generateKeyPair, type JWK } from 'jose';
import { expect } from 'vitest';
import {
  discoverIssuer,
  preAuthorizedGrant,
  requestNonce,
  requestPreAuthorizedToken,
  resolveCredentialOffer,
} from '../../clients/wallet/src/index.js';
import { mailedOffer } from './mailed-offer.js';
import { holderKey } from './proof-jwt.js';
import type { TenantFixture } from './tenant-fixture.js';

/** Hand-made credential requests for the encryption tests (OID4VCI 1.0 section 10), with jose only. */
const http = { allowHttp: true };

/** An offer redeemed at the token endpoint, with a proof over a fresh c_nonce, ready to ask. */
export async function redeemedOffer(f: TenantFixture, email: string) {
  const { offerUri, txCode, offerId } = await mailedOffer(f.integrator, f.smtp, email);
  const offer = await resolveCredentialOffer(offerUri, http);
  const { issuer, authorizationServer } = await discoverIssuer(offer, http);
  const token = await requestPreAuthorizedToken(
    {
      tokenEndpoint: authorizationServer.token_endpoint,
      preAuthorizedCode: preAuthorizedGrant(offer)['pre-authorized_code'],
      txCode,
    },
    http,
  );
  const holder = await holderKey();
  const nonce = await requestNonce(issuer.nonce_endpoint as string, http);
  const proof = await holder.proof({ aud: issuer.credential_issuer, nonce });
  const request = {
    credential_configuration_id: offer.credential_configuration_ids[0] as string,
    proofs: { jwt: [proof] },
  };
  const issuerKey = (issuer.credential_request_encryption as { jwks: { keys: JWK[] } }).jwks.keys[0] as JWK;
  const post = (body: string, type: string) =>
    fetch(issuer.credential_endpoint, {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': type },
      body,
    });
  return { offerId, issuer, issuerKey, request, post };
}

/** A compact JWE of `payload` to `key` (the issuer's), as section 10 asks: ECDH-ES, its kid. */
export const encryptTo = async (key: JWK, payload: unknown, enc = 'A128GCM') =>
  new CompactEncrypt(new TextEncoder().encode(JSON.stringify(payload)))
    .setProtectedHeader({ alg: 'ECDH-ES', enc, kid: key.kid as string })
    .encrypt(key);

/** A wallet's response key, public JWK and private half. */
export async function walletKey() {
  const { publicKey, privateKey } = await generateKeyPair('ECDH-ES', { crv: 'P-256' });
  return {
    privateKey,
    jwk: { ...(await exportJWK(publicKey)), alg: 'ECDH-ES', use: 'enc', kid: 'wallet-1' },
  };
}

export async function expectRefused(res: Response, error = 'invalid_encryption_parameters') {
  expect(res.status).toBe(400);
  expect(await res.json()).toMatchObject({ error, error_description: expect.any(String) });
}
