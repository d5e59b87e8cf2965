import { Openid4vciRetrieveCredentialsError } from '@openid4vc/openid4vci';
import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { employeePayload } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';

/**
 * Deferred issuance as @openid4vc/openid4vci 0.4.6 runs it (retrieveCredentials, then
 * retrieveDeferredCredentials with the transaction_id). The library reads our 202 answers as OID4VCI
 * 1.0 has them. Its schema of a deferred 200 wrongly refuses `notification_id` beside `credentials`
 * (an inverted check, openwallet-foundation-labs/oid4vc-ts issue #245, fixed after 0.4.6), which
 * section 9.2 allows; the service keeps sending it, so here the library's own refusal is shown and
 * the credential is read from the response its error carries and verified with @sd-jwt.
 */
let f: TenantFixture;

beforeAll(async () => {
  f = await startTenantFixture();
});
afterAll(async () => {
  await f?.stop();
});

describe('deferred issuance to a third-party wallet (@openid4vc/openid4vci)', () => {
  it('gets 202 with a transaction_id, 202 again while pending, and the credential once approved', async () => {
    const offer = await mailedOffer(
      f.integrator,
      f.smtp,
      'third-party-deferred@example.test',
      employeePayload(),
      undefined,
      { approvalRequired: true },
    );
    const wallet = new ThirdPartyWallet();
    const { client } = wallet;
    const credentialOffer = await client.resolveCredentialOffer(offer.offerUri);
    const issuerMetadata = await client.resolveIssuerMetadata(credentialOffer.credential_issuer);
    expect(issuerMetadata.credentialIssuer.deferred_credential_endpoint).toBe(
      `${f.t.baseUrl}/oid4vci/v1/deferred_credential`,
    );
    const { accessTokenResponse } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
      credentialOffer,
      issuerMetadata,
      txCode: offer.txCode,
    });
    const accessToken = accessTokenResponse.access_token;
    const credentialConfigurationId = 'LEARCredentialEmployee';
    const holderJwk: JWK = await wallet.newInstanceKey();
    const { c_nonce } = await client.requestNonce({ issuerMetadata });
    const { jwt } = await client.createCredentialRequestJwtProof({
      issuerMetadata,
      credentialConfigurationId,
      signer: { method: 'jwk', alg: 'ES256', publicJwk: holderJwk as never },
      nonce: c_nonce,
    });
    const first = await client.retrieveCredentials({
      issuerMetadata,
      accessToken,
      credentialConfigurationId,
      proofs: { jwt: [jwt] },
    });
    expect(first.response.status).toBe(202);
    const { transaction_id: transactionId, interval } = first.credentialResponse;
    expect(interval).toBe(5);
    if (!transactionId) throw new Error('no transaction_id');

    const pending = await client.retrieveDeferredCredentials({ issuerMetadata, accessToken, transactionId });
    expect(pending.response.status).toBe(202);
    expect(pending.deferredCredentialResponse).toEqual({ transaction_id: transactionId, interval: 5 });

    expect((await f.integrator.approveIssuance({ params: { id: offer.offerId } })).status).toBe(200);
    // The library's inverted notification_id check (see above) throws on the valid answer; the
    // error carries the response it refused.
    const refused = await client
      .retrieveDeferredCredentials({ issuerMetadata, accessToken, transactionId })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(refused).toBeInstanceOf(Openid4vciRetrieveCredentialsError);
    const { response } = (refused as Openid4vciRetrieveCredentialsError).response;
    expect(response.status).toBe(200);
    const body = (await response.clone().json()) as {
      credentials: { credential: string }[];
      notification_id: string;
    };
    expect(body.notification_id).toEqual(expect.any(String));
    const credential = body.credentials[0]?.credential as string;
    const { claims } = await wallet.verify(credential, holderJwk);
    expect(claims).toMatchObject({ iss: f.t.baseUrl });

    const spent = await client
      .retrieveDeferredCredentials({ issuerMetadata, accessToken, transactionId })
      .then(
        () => undefined,
        (e: unknown) => e,
      );
    expect(spent).toBeInstanceOf(Openid4vciRetrieveCredentialsError);
    const spentResponse = (spent as Openid4vciRetrieveCredentialsError).response.response;
    expect(spentResponse.status).toBe(400);
    expect(await spentResponse.clone().json()).toMatchObject({ error: 'invalid_transaction_id' });
  });
});
