import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearerCredentialRequest } from '../support/bearer-credential-request.js';
import { dpopKey } from '../support/dpop-proof.js';
import { employeePayload } from '../support/fixtures.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { startTestService } from '../support/test-service.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';
import { type makeWalletProvider, walletProviderWithAnchorsFile } from '../support/wallet-provider.js';

/**
 * The authorization code flow of OID4VCI 1.0 section 5 as HAIP 1.0 asks for it, issuer-initiated:
 * an offer with an `authorization_code` grant and issuer_state, PAR with PKCE S256, the holder's
 * sign-in with a one-time code mailed to the issuance's address, `iss` in the redirect, the token
 * with the PKCE verifier (and DPoP), and the credential; driven by @openid4vc/openid4vci.
 */
let f: TenantFixture;
let provider: Awaited<ReturnType<typeof makeWalletProvider>>;
let anchors: string;
let removeAnchors: () => Promise<void>;
let n = 0;
const REDIRECT = 'https://wallet.example/callback';

beforeAll(async () => {
  ({ provider, anchors, remove: removeAnchors } = await walletProviderWithAnchorsFile());
  f = await startTenantFixture({ WALLET_PROVIDER_TRUST_ANCHORS: anchors });
  // A second configuration with a scope of its own, for requests that name several.
  const badge = await f.t.admin.putCredentialConfiguration({
    params: { configurationId: 'AccessBadge' },
    body: {
      payload_schema: { type: 'object', properties: { level: { type: 'integer' } } },
      selectively_disclosable: [],
      validity_seconds: 3600,
      display: [{ locale: 'en', name: 'Access badge' }],
      claims: [],
    },
  });
  if (badge.status !== 200) throw new Error(`configuration: ${badge.status}`);
});
afterAll(async () => {
  await f?.stop();
  await removeAnchors?.();
});

const employeeVct = () => `${f.t.service.context.config.issuerUrl}/credential-types/LEARCredentialEmployee`;

async function authorizationCodeOffer() {
  const email = `auth-code-${++n}@example.test`;
  const res = await f.integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: employeePayload(),
      delivery: 'ui',
      email,
      grant_type: 'authorization_code',
    },
  });
  if (res.status !== 201 || !res.body.credential_offer_uri) throw new Error(`offer: ${res.status}`);
  const offerUri = res.body.credential_offer_uri;
  const location = decodeURIComponent(offerUri.split('credential_offer_uri=')[1] ?? '');
  return { offerId: res.body.offer_id, offerUri, location, email };
}

/** The holder's browser: opens the authorization page, reads the mailed code, posts it. */
async function openSignIn(authorizationRequestUrl: string, email: string) {
  const page = await fetch(authorizationRequestUrl, { redirect: 'manual' });
  const html = await page.text();
  expect(page.status, html).toBe(200);
  const session = /name="session" value="([^"]+)"/.exec(html)?.[1] ?? '';
  const mail = await f.smtp.waitForMail((m) => m.to.includes(email) && /code is/.test(m.raw), 30_000);
  const oneTimeCode = /code is: (\d{6})/.exec(mail.raw)?.[1] ?? '';
  return { html, session, oneTimeCode };
}

const postCode = (session: string, oneTimeCode: string) =>
  fetch(`${f.t.baseUrl}/oauth2/authorize/issuance`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ session, one_time_code: oneTimeCode }),
    redirect: 'manual',
  });

const signInAs = (email: string) => async (url: string) => {
  const { session, oneTimeCode } = await openSignIn(url, email);
  const done = await postCode(session, oneTimeCode);
  expect(done.status).toBe(303);
  return done.headers.get('location') ?? '';
};

const status = async (offerId: string) =>
  (await f.sql.query('select status from issuance where id = $1', [offerId])).rows[0]?.status;

const form = (url: string, body: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(body),
  });

const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** A PAR request as a wallet sends it, for the offer's issuer_state, overridable field by field. */
async function par(location: string, change: Record<string, string | undefined> = {}) {
  const offer = (await (await fetch(location)).json()) as {
    grants: { authorization_code: { issuer_state: string } };
  };
  const p = pkce();
  const fields: Record<string, string | undefined> = {
    response_type: 'code',
    client_id: 'wallet-1',
    redirect_uri: REDIRECT,
    scope: 'LEARCredentialEmployee',
    code_challenge: p.challenge,
    code_challenge_method: 'S256',
    state: 'st-1',
    issuer_state: offer.grants.authorization_code.issuer_state,
    ...change,
  };
  const body = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
  const res = await form(`${f.t.baseUrl}/oauth2/par`, body);
  return { res, json: (await res.json()) as Record<string, unknown>, verifier: p.verifier };
}

const authorizeUrl = (requestUri: string, clientId = 'wallet-1') =>
  `${f.t.baseUrl}/oauth2/authorize?${new URLSearchParams({ client_id: clientId, request_uri: requestUri })}`;

/** PAR, then the holder's sign-in: the code of the redirect. */
async function codeFor(o: Awaited<ReturnType<typeof authorizationCodeOffer>>) {
  const pushed = await par(o.location);
  expect(pushed.res.status, JSON.stringify(pushed.json)).toBe(201);
  const redirect = new URL(await signInAs(o.email)(authorizeUrl(pushed.json.request_uri as string)));
  return { code: redirect.searchParams.get('code') ?? '', verifier: pushed.verifier, redirect };
}

const token = (code: string, verifier: string) =>
  form(`${f.t.baseUrl}/oauth2/token`, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: REDIRECT,
  });

describe('authorization code flow with PAR, PKCE and a mailed one-time code', () => {
  it('advertises PAR, S256 and iss in both well-known documents, and the grant in the offer', async () => {
    const base = f.t.service.context.config.issuerUrl;
    for (const doc of ['oauth-authorization-server', 'openid-configuration']) {
      const meta = await (await fetch(`${f.t.baseUrl}/.well-known/${doc}`)).json();
      expect(meta).toMatchObject({
        authorization_endpoint: `${base}/oauth2/authorize`,
        pushed_authorization_request_endpoint: `${base}/oauth2/par`,
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        grant_types_supported: expect.arrayContaining(['authorization_code']),
        // Shared with the OpenID provider, whose relying parties push theirs too (one document).
        require_pushed_authorization_requests: true,
      });
    }
    const o = await authorizationCodeOffer();
    const offer = (await (await fetch(o.location)).json()) as {
      grants: Record<string, { issuer_state: string }>;
    };
    expect(Object.keys(offer.grants)).toEqual(['authorization_code']);
    expect(offer.grants.authorization_code?.issuer_state).toMatch(/^[\w-]+\.[\w-]+$/);
  });

  it('issues to @openid4vc/openid4vci through PAR, the sign-in page and a DPoP-bound token', async () => {
    const o = await authorizationCodeOffer();
    const received = await new ThirdPartyWallet().receiveWithAuthorizationCode(
      o.offerUri,
      signInAs(o.email),
      {
        dpop: true,
      },
    );
    expect(received.tokenType).toBe('DPoP');
    expect(received.claims).toMatchObject({ vct: employeeVct(), mandatee: { firstName: 'Ana' } });
    expect(await status(o.offerId)).toBe('issued');
  });

  it('issues with a Bearer token too, and redirects with code, state and iss', async () => {
    const o = await authorizationCodeOffer();
    const { code, verifier, redirect } = await codeFor(o);
    expect(redirect.origin + redirect.pathname).toBe(REDIRECT);
    expect(redirect.searchParams.get('state')).toBe('st-1');
    expect(redirect.searchParams.get('iss')).toBe(f.t.service.context.config.issuerUrl);
    expect(code).toMatch(/^vci_ac_/);
    const res = await token(code, verifier);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: 'Bearer' });
    expect(await status(o.offerId)).toBe('redeemed');
  });

  it('refuses a PAR without PKCE, with plain, with an unknown scope, and stores nothing', async () => {
    const o = await authorizationCodeOffer();
    const none = await par(o.location, { code_challenge: undefined, code_challenge_method: undefined });
    expect(none.res.status).toBe(400);
    expect(none.json.error).toBe('invalid_request');
    const plain = await par(o.location, { code_challenge_method: 'plain' });
    expect(plain.json.error).toBe('invalid_request');
    const noMethod = await par(o.location, { code_challenge_method: undefined });
    expect(noMethod.json.error).toBe('invalid_request');
    const scope = await par(o.location, { scope: 'NoSuchCredential openid' });
    expect(scope.json).toMatchObject({ error: 'invalid_scope' });
    // Known, but not what the offer offers.
    const other = await par(o.location, { scope: 'AccessBadge' });
    expect(other.json).toMatchObject({ error: 'invalid_scope' });
    // RFC 9396 authorization_details is not supported (the metadata lists no types): no scope, no request.
    const details = JSON.stringify([
      { type: 'openid_credential', credential_configuration_id: 'LEARCredentialEmployee' },
    ]);
    const byDetails = await par(o.location, { scope: undefined, authorization_details: details });
    expect(byDetails.json).toMatchObject({
      error: 'invalid_scope',
      error_description: expect.stringContaining('authorization_details is not supported'),
    });
    const noState = await par(o.location, { issuer_state: 'forged.mac' });
    expect(noState.json.error).toBe('invalid_request');
    expect(await status(o.offerId)).toBe('offered');
  });

  it('ignores unknown scope values and grants, of several asked for, the configuration offered', async () => {
    const o = await authorizationCodeOffer();
    // OID4VCI 1.0 section 5.1.2: each value is a request of its own; unknown ones are ignored.
    const pushed = await par(o.location, {
      scope: 'openid NoSuchCredential AccessBadge LEARCredentialEmployee',
    });
    expect(pushed.res.status, JSON.stringify(pushed.json)).toBe(201);
    const redirect = new URL(await signInAs(o.email)(authorizeUrl(pushed.json.request_uri as string)));
    const res = await token(redirect.searchParams.get('code') ?? '', pushed.verifier);
    const tokens = (await res.json()) as { access_token: string; scope: string };
    // RFC 6749 section 5.1: the scope granted, less than the one asked for.
    expect([res.status, tokens.scope]).toEqual([200, 'LEARCredentialEmployee']);
    const issuer = f.t.service.context.config.issuerUrl;
    const badge = await bearerCredentialRequest(f.t.baseUrl, issuer, tokens.access_token, 'AccessBadge');
    expect(await badge.json()).toMatchObject({ error: 'unknown_credential_configuration' });
    const employee = await bearerCredentialRequest(
      f.t.baseUrl,
      issuer,
      tokens.access_token,
      'LEARCredentialEmployee',
    );
    expect(employee.status).toBe(200);
    expect(await status(o.offerId)).toBe('issued');
  });

  it('refuses a wrong code_verifier (the code stays usable), then a reused code', async () => {
    const o = await authorizationCodeOffer();
    const { code, verifier } = await codeFor(o);
    const wrong = await token(code, pkce().verifier);
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toMatchObject({ error: 'invalid_grant' });
    expect(await status(o.offerId)).toBe('offered');
    expect((await token(code, verifier)).status).toBe(200);
    const again = await token(code, verifier);
    expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
  });

  it('revokes the access and refresh tokens of a code’s first use when the code comes again', async () => {
    const tenant = { params: { id: f.tenant.id } };
    await f.t.admin.updateTenant({ ...tenant, body: { refresh_token_expires_in: 3600 } });
    try {
      const o = await authorizationCodeOffer();
      const { code, verifier } = await codeFor(o);
      const first = (await (await token(code, verifier)).json()) as Record<string, string>;
      expect(first.refresh_token).toMatch(/^vci_rt_/);
      const again = await token(code, verifier);
      expect(await again.json()).toMatchObject({ error: 'invalid_grant' });
      // RFC 6749 section 4.1.2: what the first use got is revoked.
      const credential = await fetch(`${f.t.baseUrl}/oid4vci/v1/credential`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${first.access_token}` },
        body: JSON.stringify({ credential_configuration_id: 'LEARCredentialEmployee' }),
      });
      expect([credential.status, ((await credential.json()) as { error: string }).error]).toEqual([
        401,
        'invalid_token',
      ]);
      const refreshed = await form(`${f.t.baseUrl}/oauth2/token`, {
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token as string,
      });
      expect(await refreshed.json()).toMatchObject({ error: 'invalid_grant' });
      const audit = await f.sql.query(
        `select action from (select action, subject from audit_event
           union all select action, subject from audit_pending) e where subject = $1`,
        [o.offerId],
      );
      expect(audit.rows.map((r) => r.action)).toContain('authorization_code.replayed');
    } finally {
      await f.t.admin.updateTenant({ ...tenant, body: { refresh_token_expires_in: null } });
    }
  });

  it('takes a request_uri once, and not an unknown one', async () => {
    const o = await authorizationCodeOffer();
    const pushed = await par(o.location);
    const uri = pushed.json.request_uri as string;
    expect(pushed.json.expires_in).toBe(60);
    await openSignIn(authorizeUrl(uri), o.email);
    const reused = await fetch(authorizeUrl(uri), { redirect: 'manual' });
    expect(reused.status).toBe(400);
    expect(await reused.text()).toContain('invalid_request_uri');
    const unknown = await fetch(authorizeUrl('urn:ietf:params:oauth:request_uri:nope'), {
      redirect: 'manual',
    });
    expect(await unknown.text()).toContain('invalid_request_uri');
  });

  it('counts wrong one-time codes and ends the sign-in with access_denied at the fifth', async () => {
    const o = await authorizationCodeOffer();
    const pushed = await par(o.location);
    const { session, oneTimeCode } = await openSignIn(
      authorizeUrl(pushed.json.request_uri as string),
      o.email,
    );
    const wrongCode = oneTimeCode === '000000' ? '111111' : '000000';
    for (let i = 1; i < 5; i++) {
      const wrong = await postCode(session, wrongCode);
      expect(wrong.status).toBe(400);
      expect(await wrong.text()).toContain(`${5 - i} attempts left`);
    }
    const fifth = await postCode(session, wrongCode);
    expect(fifth.status).toBe(303);
    const denied = new URL(fifth.headers.get('location') ?? '');
    expect(denied.searchParams.get('error')).toBe('access_denied');
    expect(denied.searchParams.get('state')).toBe('st-1');
    // The right code no longer helps: the sign-in is gone, and the offer locked (as after five
    // wrong tx_codes), so that a new PAR does not give a guesser five more attempts.
    expect((await postCode(session, oneTimeCode)).status).toBe(400);
    expect(await status(o.offerId)).toBe('locked');
    expect((await fetch(o.location)).status).toBe(404);
  });

  it('authenticates the wallet by its attestation at PAR and token, client_id being its sub', async () => {
    const o = await authorizationCodeOffer();
    const wallet = new ThirdPartyWallet();
    const attestation = await provider.attest(await wallet.newInstanceKey());
    const received = await wallet.receiveWithAuthorizationCode(o.offerUri, signInAs(o.email), {
      dpop: true,
      clientAttestation: attestation,
      clientId: 'https://wallet.example/app',
    });
    expect(received.tokenType).toBe('DPoP');
    expect(await status(o.offerId)).toBe('issued');
    const other = await authorizationCodeOffer();
    const impostor = new ThirdPartyWallet();
    const its = await provider.attest(await impostor.newInstanceKey());
    await expect(
      impostor.receiveWithAuthorizationCode(other.offerUri, signInAs(other.email), {
        clientAttestation: its,
        clientId: 'someone-else',
      }),
    ).rejects.toMatchObject({ errorResponse: { error: 'invalid_client' } });
    expect(await status(other.offerId)).toBe('offered');
  });

  it('binds the code to the dpop_jkt pushed at PAR: no proof of that key, no token', async () => {
    const o = await authorizationCodeOffer();
    const key = await dpopKey();
    const pushed = await par(o.location, { dpop_jkt: key.jkt });
    const redirect = new URL(await signInAs(o.email)(authorizeUrl(pushed.json.request_uri as string)));
    const code = redirect.searchParams.get('code') ?? '';
    const bearer = await token(code, pushed.verifier);
    expect(await bearer.json()).toMatchObject({ error: 'invalid_dpop_proof' });
    const htu = `${f.t.service.context.config.issuerUrl}/oauth2/token`;
    const withProof = async (nonce?: string) =>
      fetch(`${f.t.baseUrl}/oauth2/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          dpop: await key.proof({ htm: 'POST', htu, ...(nonce ? { nonce } : {}) }),
        },
        body: new URLSearchParams({
          grant_type: 'authorization_code',
          code,
          code_verifier: pushed.verifier,
          redirect_uri: REDIRECT,
        }),
      });
    const first = await withProof();
    expect(await first.json()).toMatchObject({ error: 'use_dpop_nonce' });
    const ok = await withProof(first.headers.get('dpop-nonce') ?? '');
    expect(await ok.json()).toMatchObject({ token_type: 'DPoP' });
  });

  it('with WALLET_ATTESTATION_REQUIRED, refuses a PAR without attestation as invalid_client (HAIP 1.0)', async () => {
    const o = await authorizationCodeOffer();
    const strict = await startTestService({
      env: {
        WALLET_ATTESTATION_REQUIRED: 'true',
        WALLET_PROVIDER_TRUST_ANCHORS: anchors,
      },
      db: f.t.db,
    });
    try {
      const meta = (await (
        await fetch(`${strict.baseUrl}/.well-known/oauth-authorization-server`)
      ).json()) as {
        token_endpoint_auth_methods_supported: string[];
      };
      expect(meta.token_endpoint_auth_methods_supported).not.toContain('none');
      const offer = (await (await fetch(o.location)).json()) as {
        grants: { authorization_code: { issuer_state: string } };
      };
      const res = await form(`${strict.baseUrl}/oauth2/par`, {
        response_type: 'code',
        client_id: 'wallet-1',
        redirect_uri: REDIRECT,
        scope: 'LEARCredentialEmployee',
        code_challenge: pkce().challenge,
        code_challenge_method: 'S256',
        issuer_state: offer.grants.authorization_code.issuer_state,
      });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: 'invalid_client' });
    } finally {
      await strict.stop();
    }
  });
});
