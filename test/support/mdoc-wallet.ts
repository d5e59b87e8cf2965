import { SessionTranscript } from '@owf/mdoc';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import type { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { mdocCrypto, presentMdoc } from './mdoc-holder.js';
import { readPreAuthorizedOffer, redeemPreAuthorizedCode } from './pre-authorized-code.js';
import { ThirdPartyHolder } from './third-party-holder.js';

/**
 * A wallet for mdocs made of code the service did not write: jose for the OID4VCI key proof,
 * @openid4vc/openid4vp (ThirdPartyHolder) for the request and the encrypted response, @owf/mdoc for
 * the SessionTranscript and the DeviceResponse. Shared by the mdoc end-to-end test and the mission.
 */
export const EMPLOYEE_NS = 'eu.credservice.employee.1';

type Integrator = ReturnType<typeof createIntegratorClient>;

export interface ReceivedMdoc {
  credential: string;
  devicePrivateKey: JWK;
}

/** Redeems a pre-authorized code offer for EmployeeMdoc with its tx_code, proving a fresh device key. */
export async function redeemMdocOffer(
  baseUrl: string,
  offerUri: string,
  txCode: string,
): Promise<ReceivedMdoc> {
  const [first] = await redeemMdocBatch(baseUrl, offerUri, txCode, 1);
  return first as ReceivedMdoc;
}

/**
 * Redeems a pre-authorized code offer for EmployeeMdoc as one batch (OID4VCI 1.0 section 8.2): one
 * key proof per fresh device key, one mdoc per proof, in the order of the proofs.
 */
export async function redeemMdocBatch(
  baseUrl: string,
  offerUri: string,
  txCode: string,
  size: number,
): Promise<ReceivedMdoc[]> {
  const location = decodeURIComponent(offerUri.split('credential_offer_uri=')[1] ?? '');
  const offer = await readPreAuthorizedOffer(location);
  const token = (await (await redeemPreAuthorizedCode(baseUrl, offer.code, txCode)).json()) as {
    access_token: string;
  };
  const nonce = (await (await fetch(`${baseUrl}/oid4vci/v1/nonce`, { method: 'POST' })).json()) as {
    c_nonce: string;
  };
  const devices = await Promise.all(
    Array.from({ length: size }, () => generateKeyPair('ES256', { extractable: true })),
  );
  const proofs = await Promise.all(
    devices.map(async (device) =>
      new SignJWT({ nonce: nonce.c_nonce })
        .setProtectedHeader({
          alg: 'ES256',
          typ: 'openid4vci-proof+jwt',
          jwk: await exportJWK(device.publicKey),
        })
        .setAudience(offer.credentialIssuer)
        .setIssuedAt()
        .sign(device.privateKey),
    ),
  );
  const res = await fetch(`${baseUrl}/oid4vci/v1/credential`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token.access_token}` },
    body: JSON.stringify({ credential_configuration_id: 'EmployeeMdoc', proofs: { jwt: proofs } }),
  });
  if (res.status !== 200) throw new Error(`credential endpoint: ${res.status} ${await res.text()}`);
  const body = (await res.json()) as { credentials: { credential: string }[] };
  return Promise.all(
    body.credentials.map(async ({ credential }, i) => ({
      credential,
      devicePrivateKey: await exportJWK((devices[i] as (typeof devices)[number]).privateKey),
    })),
  );
}

/**
 * Starts a session for the employee mdoc (direct_post.jwt) and answers it with `mdoc`: the
 * DeviceResponse signed over the OID4VP B.2.6.1 transcript the wallet computes from the request.
 * Returns the wallet's answer and the session as the integrator polls it.
 */
export async function presentEmployeeMdoc(integrator: Integrator, mdoc: ReceivedMdoc) {
  const session = await integrator.createAuthorizationRequest({
    body: { credential_configuration_id: 'EmployeeMdoc', response_mode: 'direct_post.jwt' } as never,
  });
  if (session.status !== 201) throw new Error(`session: ${session.status} ${JSON.stringify(session.body)}`);
  const answer = await answerWithMdoc(
    await ThirdPartyHolder.create(),
    session.body.authorization_request_uri,
    'credential',
    mdoc,
    { [EMPLOYEE_NS]: ['mandator', 'mandatee', 'power'] },
  );
  const polled = await integrator.getAuthorizationRequest({ params: { id: session.body.session_id } });
  return { answer, result: polled.body as Record<string, unknown> };
}

/**
 * Answers an OID4VP request (direct_post.jwt) for the credential query `queryId` with `mdoc`: the
 * DeviceResponse disclosing `disclose`, signed over the OID4VP 1.0 B.2.6.1 transcript the wallet
 * computes from the request, encrypted and posted by @openid4vc/openid4vp.
 */
export function answerWithMdoc(
  holder: ThirdPartyHolder,
  authorizationRequestUri: string,
  queryId: string,
  mdoc: ReceivedMdoc,
  disclose: Record<string, string[]>,
) {
  return holder.presentVpToken(authorizationRequestUri, async (resolved) => {
    const request = resolved.authorizationRequestPayload as {
      client_id: string;
      nonce: string;
      response_uri: string;
      client_metadata: { jwks: { keys: JWK[] } };
    };
    const [encryptionKey] = request.client_metadata.jwks.keys;
    const sessionTranscript = await SessionTranscript.forOid4Vp(
      {
        clientId: request.client_id,
        nonce: request.nonce,
        responseUri: request.response_uri,
        jwkThumbprint: Buffer.from(await calculateJwkThumbprint(encryptionKey as JWK), 'base64url'),
      },
      mdocCrypto,
    );
    const deviceResponse = await presentMdoc({
      issuerSigned: mdoc.credential,
      devicePrivateKey: mdoc.devicePrivateKey,
      sessionTranscript,
      disclose,
    });
    return { [queryId]: [Buffer.from(deviceResponse).toString('base64url')] };
  });
}
