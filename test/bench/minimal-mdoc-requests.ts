import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { SessionTranscript } from '@owf/mdoc';
import { calculateJwkThumbprint, type JWK } from 'jose';
import { mdocCrypto, presentMdoc } from '../support/mdoc-holder.js';
import { expectStatus } from './harness.js';
import type { Answer } from './minimal-jwe.js';
import { MDOC_CLIENT_ID, MDOC_DOCTYPE, MDOC_RESPONSE_URI } from './minimal-mdoc.js';
import { MINIMAL_ISSUER, signJws } from './minimal-sd-jwt.js';

/**
 * What the minimal mdoc verifier is sent, made before the clock starts as the SD-JWT presentations
 * are: one mdoc from the minimal pipeline, then per presentation a fresh nonce, its OpenID4VP
 * SessionTranscript and a DeviceResponse disclosing every element, both made by @owf/mdoc (the
 * wallet library the service's figures use too). The nonce travels as `state`, from which the
 * minimal verifier rebuilds the transcript. Answers to be encrypted to `encryptionKey` bind its
 * thumbprint in the transcript (OpenID4VP 1.0 B.2.6.1), as mdoc.bench.ts's wallet does.
 */
export async function mdocPresentations(
  base: string,
  n: number,
  encryptionKey?: JWK,
): Promise<Required<Answer>[]> {
  const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = holder.publicKey.export({ format: 'jwk' });
  const proof = signJws(
    holder.privateKey,
    { typ: 'openid4vci-proof+jwt', jwk },
    { aud: MINIMAL_ISSUER, nonce: 'n', iat: Math.floor(Date.now() / 1000) },
  );
  const res = await fetch(`${base}/credential-mdoc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ proof }),
  });
  expectStatus(res, 200, 'minimal mdoc credential');
  const { credentials } = (await res.json()) as { credentials: { credential: string }[] };
  const issuerSigned = credentials[0]?.credential ?? '';
  const devicePrivateKey = holder.privateKey.export({ format: 'jwk' }) as JWK;
  const jwkThumbprint = encryptionKey
    ? Buffer.from(await calculateJwkThumbprint(encryptionKey), 'base64url')
    : undefined;
  return Promise.all(
    Array.from({ length: n }, async () => {
      const nonce = randomBytes(16).toString('base64url');
      const sessionTranscript = await SessionTranscript.forOid4Vp(
        {
          clientId: MDOC_CLIENT_ID,
          nonce,
          responseUri: MDOC_RESPONSE_URI,
          ...(jwkThumbprint ? { jwkThumbprint } : {}),
        },
        mdocCrypto,
      );
      const deviceResponse = await presentMdoc({
        issuerSigned,
        devicePrivateKey,
        sessionTranscript,
        disclose: { [MDOC_DOCTYPE]: ['mandator', 'mandatee', 'power'] },
      });
      return { vp_token: { employee: [Buffer.from(deviceResponse).toString('base64url')] }, state: nonce };
    }),
  );
}
