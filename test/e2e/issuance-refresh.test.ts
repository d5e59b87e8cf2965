import { calculateJwkThumbprint } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { employeePayload } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { scimClient } from '../support/scim-client.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';
import { type makeWalletProvider, walletProviderWithAnchorsFile } from '../support/wallet-provider.js';

/**
 * Credential refresh as a third-party wallet (@openid4vc/openid4vci and @openid4vc/oauth2) does it,
 * HAIP 1.0 section 4.4: the tenant allows refresh tokens, the wallet gets one with its access token
 * (authorization code flow and pre-authorized code flow, DPoP-bound, with a wallet attestation),
 * refreshes at the token endpoint the metadata names and fetches a fresh credential for a new key.
 * Bound to its DPoP key, the refresh token is not rotated (FAPI 2.0): the wallet keeps using the one
 * it has. It is bound to the attested wallet too, and ends with the SCIM user it was issued to.
 */
let f: TenantFixture;
let provider: Awaited<ReturnType<typeof makeWalletProvider>>;
let removeAnchors: () => Promise<void>;
let issuer: string;
let n = 0;
const CONFIGURATION = 'LEARCredentialEmployee';
const CREDENTIAL = 'urn:credservice:params:scim:schemas:extension:credential:2.0:User';

beforeAll(async () => {
  const made = await walletProviderWithAnchorsFile();
  ({ provider, remove: removeAnchors } = made);
  f = await startTenantFixture({ WALLET_PROVIDER_TRUST_ANCHORS: made.anchors });
  issuer = f.t.service.context.config.issuerUrl;
  await f.t.admin.updateTenant({
    params: { id: f.tenant.id },
    body: { refresh_token_expires_in: 30 * 86_400 },
  });
});
afterAll(async () => {
  await f?.stop();
  await removeAnchors?.();
});

const thumbprint = (jwk: Parameters<typeof calculateJwkThumbprint>[0]) => calculateJwkThumbprint(jwk);

/** The holder's browser at the sign-in page: reads the mailed one-time code and posts it. */
const signInAs = (email: string) => async (url: string) => {
  const html = await (await fetch(url, { redirect: 'manual' })).text();
  const session = /name="session" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const mail = await f.smtp.waitForMail((m) => m.to.includes(email) && /code is/.test(m.raw), 30_000);
  const done = await fetch(`${f.t.baseUrl}/oauth2/authorize/issuance`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ session, one_time_code: /code is: (\d{6})/.exec(mail.raw)?.[1] ?? '' }),
    redirect: 'manual',
  });
  return done.headers.get('location') ?? '';
};

const refreshTokensOf = async (offerId: string) =>
  (
    await f.sql.query(
      `select t.token_hash, t.used_at from oid4vci_refresh_token t
       join oid4vci_refresh_family fam on fam.id = t.family_id where fam.issuance_id = $1
       order by t.created_at, t.token_hash`,
      [offerId],
    )
  ).rows;

describe('credential refresh by a third-party wallet', () => {
  it('authorization code flow with DPoP: refreshes, gets a fresh credential, and keeps its refresh token', async () => {
    const email = `refresh-code-${++n}@example.test`;
    const res = await f.integrator.createIssuance({
      body: {
        credential_configuration_id: CONFIGURATION,
        payload: employeePayload(),
        delivery: 'ui',
        email,
        grant_type: 'authorization_code',
      },
    });
    if (res.status !== 201 || !res.body.credential_offer_uri) throw new Error(`offer: ${res.status}`);
    const wallet = new ThirdPartyWallet();
    const first = await wallet.receiveWithAuthorizationCode(res.body.credential_offer_uri, signInAs(email), {
      dpop: true,
    });
    expect(first.refreshToken).toMatch(/^vci_rt_/);
    const dpopJwk = first.dpopJwk as NonNullable<typeof first.dpopJwk>;

    const fresh = await wallet.refresh(issuer, CONFIGURATION, first.refreshToken as string, { dpopJwk });
    expect(fresh.tokenType).toBe('DPoP');
    expect(fresh.claims).toMatchObject({ mandatee: first.claims.mandatee, vct: first.claims.vct });
    expect(await thumbprint(fresh.holderJwk)).not.toBe(await thumbprint(first.holderJwk));
    // DPoP-bound: the same refresh token comes back, unused, and refreshes again.
    expect(fresh.refreshToken).toBe(first.refreshToken);
    expect(await wallet.status(fresh.credential)).toBe(0);
    const again = await wallet.refresh(issuer, CONFIGURATION, first.refreshToken as string, { dpopJwk });
    expect(again.claims.mandatee).toEqual(first.claims.mandatee);
    expect((await refreshTokensOf(res.body.offer_id)).map((r) => r.used_at)).toEqual([null]);

    // Without the DPoP key the token is worth nothing, and trying leaves it as it was.
    await expect(wallet.refresh(issuer, CONFIGURATION, first.refreshToken as string)).rejects.toMatchObject({
      errorResponse: { error: 'invalid_dpop_proof' },
    });
    expect((await refreshTokensOf(res.body.offer_id)).map((r) => r.used_at)).toEqual([null]);
  });

  it('pre-authorized code with a wallet attestation: only that wallet refreshes (invalid_client otherwise)', async () => {
    const { offerId, offerUri, txCode } = await mailedOffer(
      f.integrator,
      f.smtp,
      `refresh-attested-${++n}@example.test`,
    );
    const wallet = new ThirdPartyWallet();
    const attestation = await provider.attest(await wallet.newInstanceKey());
    const first = await wallet.receive(offerUri, txCode, { dpop: true, clientAttestation: attestation });
    const dpopJwk = first.dpopJwk as NonNullable<typeof first.dpopJwk>;
    const refreshToken = first.refreshToken as string;
    const before = await refreshTokensOf(offerId);

    await expect(wallet.refresh(issuer, CONFIGURATION, refreshToken, { dpopJwk })).rejects.toMatchObject({
      errorResponse: { error: 'invalid_client' },
    });
    const other = await provider.attest(await wallet.newInstanceKey(), { sub: 'https://other.example/app' });
    await expect(
      wallet.refresh(issuer, CONFIGURATION, refreshToken, { dpopJwk, clientAttestation: other }),
    ).rejects.toMatchObject({ errorResponse: { error: 'invalid_client' } });
    expect(await refreshTokensOf(offerId)).toEqual(before);

    const again = await provider.attest(await wallet.newInstanceKey());
    const fresh = await wallet.refresh(issuer, CONFIGURATION, refreshToken, {
      dpopJwk,
      clientAttestation: again,
    });
    expect(fresh.claims.mandatee).toEqual(first.claims.mandatee);
  });

  it('ends with the SCIM user: renewed, inactive, then removed, are invalid_grant and change nothing', async () => {
    const scim = scimClient(f.t.baseUrl, f.tenant.id, f.tenant.scim_token);
    const email = `refresh-scim-${++n}@acme.test`;
    const user = {
      schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
      userName: email,
      active: true,
      name: { givenName: 'Ana', familyName: 'Ruiz' },
      emails: [{ value: email, primary: true }],
    };
    const created = await scim.post('/Users', user);
    expect(created.status).toBe(201);
    const offerId = created.body[CREDENTIAL].issuanceId as string;
    const mail = await f.smtp.waitForMail((m) => m.to.includes(email) && /activation code is/.test(m.raw));
    const txCode = /activation code is: (\d{6})/.exec(mail.raw)?.[1] ?? '';
    const offerUri = `openid-credential-offer://?credential_offer_uri=${encodeURIComponent(
      `${issuer}/oid4vci/v1/credential-offer/${offerId}`,
    )}`;
    const wallet = new ThirdPartyWallet();
    const first = await wallet.receive(offerUri, txCode, { dpop: true });
    const dpopJwk = first.dpopJwk as NonNullable<typeof first.dpopJwk>;
    const refreshed = await wallet.refresh(issuer, CONFIGURATION, first.refreshToken as string, { dpopJwk });
    const refreshToken = refreshed.refreshToken as string;

    // A change to what the credential says renews it: a new offer, and this grant ends.
    const renamed = { ...user, name: { givenName: 'Anna', familyName: 'Ruiz' } };
    const renewed = await scim.put(`/Users/${created.body.id}`, renamed);
    expect(renewed.body[CREDENTIAL].issuanceId).not.toBe(offerId);
    const beforeRenewal = await refreshTokensOf(offerId);
    await expect(wallet.refresh(issuer, CONFIGURATION, refreshToken, { dpopJwk })).rejects.toMatchObject({
      errorResponse: {
        error: 'invalid_grant',
        error_description: 'the holder’s credential was renewed: use the new offer',
      },
    });
    expect(await refreshTokensOf(offerId)).toEqual(beforeRenewal);

    const deactivated = await scim.put(`/Users/${created.body.id}`, { ...renamed, active: false });
    expect(deactivated.status).toBe(200);
    const before = await refreshTokensOf(offerId);
    await expect(wallet.refresh(issuer, CONFIGURATION, refreshToken, { dpopJwk })).rejects.toMatchObject({
      errorResponse: { error: 'invalid_grant', error_description: 'the holder is inactive in the directory' },
    });
    expect(await refreshTokensOf(offerId)).toEqual(before);
    // Both credentials, the first and the refreshed one, were revoked with the user.
    const { rows } = await f.sql.query('select status from issued_credential where issuance_id = $1', [
      offerId,
    ]);
    expect(rows).toEqual([{ status: 'revoked' }, { status: 'revoked' }]);

    expect((await scim.delete(`/Users/${created.body.id}`)).status).toBe(204);
    await expect(wallet.refresh(issuer, CONFIGURATION, refreshToken, { dpopJwk })).rejects.toMatchObject({
      errorResponse: {
        error: 'invalid_grant',
        error_description: 'the holder was removed from the directory',
      },
    });
    expect(await refreshTokensOf(offerId)).toEqual(before);
  });
});
