import { calculateJwkThumbprint, decodeJwt, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { sweepRefreshFamilies } from '../../server/oid4vci/refresh/sweep-refresh-families.js';
import { dpopKey } from '../support/dpop-proof.js';
import type { CredentialOfferJson } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { holderKey } from '../support/proof-jwt.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { acmeTenant } from '../support/test-service.js';

/**
 * Refresh tokens at the issuer (RFC 6749 section 6, OID4VCI 1.0 section 13.5, HAIP 1.0 section
 * 4.4) over raw HTTP with hand-made DPoP proofs: a tenant that allows refresh gets a refresh token
 * beside the access token, the refresh gives a new access token that fetches a fresh credential for
 * a new holder key, unbound tokens rotate and a reused one ends its family (RFC 9700 section
 * 4.14.2), the DPoP key binds the refresh token (RFC 9449 section 5) which then does not rotate
 * (FAPI 2.0), and a revoked credential ends refreshing.
 * Every refusal is checked for its exact error and for leaving the stored tokens as they were.
 */
let f: TenantFixture;
let refreshing: ReturnType<typeof createIntegratorClient>;
let base: string;
let issuer: string;
let n = 0;
const TOKEN = '/oauth2/token';
const DAY = 86_400;

beforeAll(async () => {
  f = await startTenantFixture();
  base = f.t.baseUrl;
  issuer = f.t.service.context.config.issuerUrl;
  // A second tenant that allows credential refresh; the fixture's own tenant does not.
  const created = await f.t.admin.createTenant({ body: acmeTenant() });
  if (created.status !== 201) throw new Error(`tenant: ${created.status}`);
  const updated = await f.t.admin.updateTenant({
    params: { id: created.body.id },
    body: { refresh_token_expires_in: DAY },
  });
  expect(updated.body).toMatchObject({ refresh_token_expires_in: DAY });
  refreshing = createIntegratorClient({ baseUrl: base, token: created.body.integrator_token });
});
afterAll(() => f.stop());

const form = (path: string, body: Record<string, string>, dpop?: string) =>
  fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(dpop ? { dpop } : {}) },
    body: new URLSearchParams(body),
  });

/** The current DPoP nonce and a fresh c_nonce, as the nonce endpoint hands them out. */
async function nonces() {
  const res = await fetch(`${base}/oid4vci/v1/nonce`, { method: 'POST' });
  const { c_nonce } = (await res.json()) as { c_nonce: string };
  return { cNonce: c_nonce, dpopNonce: res.headers.get('dpop-nonce') as string };
}

type Key = Awaited<ReturnType<typeof dpopKey>>;
type Tokens = { access_token: string; token_type: string; refresh_token?: string };

const tokenProof = async (key: Key) =>
  key.proof({ htm: 'POST', htu: `${issuer}${TOKEN}`, nonce: (await nonces()).dpopNonce });

/** A mailed offer of `integrator`'s tenant redeemed at the token endpoint (with DPoP when given a key). */
async function redeem(integrator: ReturnType<typeof createIntegratorClient>, key?: Key) {
  const { offerId, location, txCode } = await mailedOffer(integrator, f.smtp, `refresh-${++n}@example.test`);
  const offer = (await (await fetch(location)).json()) as CredentialOfferJson;
  const code = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']?.['pre-authorized_code'];
  const res = await form(
    TOKEN,
    {
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code': code ?? '',
      tx_code: txCode,
    },
    key ? await tokenProof(key) : undefined,
  );
  expect(res.status).toBe(200);
  return { offerId, tokens: (await res.json()) as Tokens };
}

const refresh = async (refreshToken: string, key?: Key) =>
  form(
    TOKEN,
    { grant_type: 'refresh_token', refresh_token: refreshToken },
    key ? await tokenProof(key) : undefined,
  );

/** A credential request with a new holder key; DPoP-proven when given the token's key. */
async function fetchCredential(accessToken: string, key?: Key) {
  const holder = await holderKey();
  const { cNonce, dpopNonce } = await nonces();
  const url = `${base}/oid4vci/v1/credential`;
  const res = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `${key ? 'DPoP' : 'Bearer'} ${accessToken}`,
      ...(key
        ? {
            dpop: await key.proof({
              htm: 'POST',
              htu: `${issuer}/oid4vci/v1/credential`,
              nonce: dpopNonce,
              accessToken,
            }),
          }
        : {}),
    },
    body: JSON.stringify({
      credential_configuration_id: 'LEARCredentialEmployee',
      proofs: { jwt: [await holder.proof({ aud: issuer, nonce: cNonce })] },
    }),
  });
  return { res, holder };
}

const storedTokens = async (offerId: string) =>
  (
    await f.sql.query(
      `select t.token_hash, t.used_at from oid4vci_refresh_token t
       join oid4vci_refresh_family fam on fam.id = t.family_id
       where fam.issuance_id = $1 order by t.created_at, t.token_hash`,
      [offerId],
    )
  ).rows;

const credentialCount = async (offerId: string) =>
  (await f.sql.query('select count(*)::int as n from issued_credential where issuance_id = $1', [offerId]))
    .rows[0].n as number;

async function expectError(res: Response, status: number, error: string) {
  const body = (await res.json()) as { error?: string };
  expect([res.status, body.error]).toEqual([status, error]);
}

describe('refresh tokens', () => {
  it('are advertised as a grant type of the authorization server', async () => {
    const meta = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as {
      grant_types_supported: string[];
    };
    expect(meta.grant_types_supported).toContain('refresh_token');
  });

  it('are not given by a tenant without refresh_token_expires_in', async () => {
    const { offerId, tokens } = await redeem(f.integrator, await dpopKey());
    expect(tokens.access_token).toBeTruthy();
    expect(tokens).not.toHaveProperty('refresh_token');
    expect(await storedTokens(offerId)).toEqual([]);
  });

  it('refresh a DPoP-bound grant: a new access token fetches a fresh credential for a new holder key', async () => {
    const key = await dpopKey();
    const { offerId, tokens } = await redeem(refreshing, key);
    expect(tokens).toMatchObject({ token_type: 'DPoP', refresh_token: expect.stringMatching(/^vci_rt_/) });
    const first = await fetchCredential(tokens.access_token, key);
    expect(first.res.status).toBe(200);

    const res = await refresh(tokens.refresh_token as string, key);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('dpop-nonce')).toBeTruthy();
    const refreshed = (await res.json()) as Tokens;
    expect(refreshed).toMatchObject({ token_type: 'DPoP', expires_in: 300 });
    // Bound to the DPoP key, the refresh token is not rotated: the answer gives the same one back.
    expect(refreshed.refresh_token).toBe(tokens.refresh_token);
    expect(refreshed.access_token).not.toBe(tokens.access_token);
    expect((await storedTokens(offerId)).map((r) => r.used_at)).toEqual([null]);

    const { res: fresh, holder } = await fetchCredential(refreshed.access_token, key);
    expect(fresh.status).toBe(200);
    const { credentials } = (await fresh.json()) as { credentials: { credential: string }[] };
    const payload = decodeJwt((credentials[0]?.credential ?? '').split('~')[0] ?? '') as {
      cnf: { jwk: JWK };
      iss: string;
    };
    expect(payload.iss).toBe(issuer);
    expect(await calculateJwkThumbprint(payload.cnf.jwk)).toBe(await calculateJwkThumbprint(holder.jwk));
    expect(await credentialCount(offerId)).toBe(2);
    // One refresh, one credential response.
    const again = await fetchCredential(refreshed.access_token, key);
    await expectError(again.res, 400, 'credential_request_denied');
    expect(await credentialCount(offerId)).toBe(2);
    // The issuance's own status is untouched by refreshing.
    const { rows } = await f.sql.query('select status, payload from issuance where id = $1', [offerId]);
    expect(rows[0]).toEqual({ status: 'issued', payload: null });
    // And the same refresh token refreshes again, still unused and alone.
    expect((await refresh(tokens.refresh_token as string, key)).status).toBe(200);
    expect((await storedTokens(offerId)).map((r) => r.used_at)).toEqual([null]);
  });

  it('refresh before the first credential was fetched, and a Bearer grant without DPoP', async () => {
    const { offerId, tokens } = await redeem(refreshing);
    expect(tokens.token_type).toBe('Bearer');
    const res = await refresh(tokens.refresh_token as string);
    const refreshed = (await res.json()) as Tokens;
    expect(refreshed).toMatchObject({ token_type: 'Bearer', refresh_token: expect.any(String) });
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    expect((await fetchCredential(refreshed.access_token)).res.status).toBe(200);
    expect(await credentialCount(offerId)).toBe(1);
    // The first access token finds its offer issued, as before.
    await expectError((await fetchCredential(tokens.access_token)).res, 400, 'credential_request_denied');
  });

  it('rotate when unbound: a used refresh token is refused, and its reuse ends the whole family', async () => {
    const { offerId, tokens } = await redeem(refreshing);
    const refreshed = (await (await refresh(tokens.refresh_token as string)).json()) as Tokens;
    expect((await storedTokens(offerId)).map((r) => r.used_at !== null)).toEqual([true, false]);

    await expectError(await refresh(tokens.refresh_token as string), 400, 'invalid_grant');
    // The family is gone: its current refresh token and the access token it gave no longer work.
    expect(await storedTokens(offerId)).toEqual([]);
    await expectError(await refresh(refreshed.refresh_token as string), 400, 'invalid_grant');
    const { res } = await fetchCredential(refreshed.access_token);
    await expectError(res, 401, 'invalid_token');
    // Sealed or still pending for the sealer: every event the grant appended.
    const audit = await f.sql.query(
      `select action from (select action, created_at from audit_event where subject = $1
         union all select action, created_at from audit_pending where subject = $1) e
       where action like 'refresh_token.%' order by created_at`,
      [offerId],
    );
    expect(audit.rows.map((r) => r.action)).toEqual(['refresh_token.used', 'refresh_token.reused']);
  });

  it('two racing uses of one refresh token: exactly one wins, and the other, a reuse, ends the family', async () => {
    const { offerId, tokens } = await redeem(refreshing);
    const rt = tokens.refresh_token as string;
    const answers = await Promise.all([refresh(rt), refresh(rt)]);
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as (Tokens & { error?: string })[];
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(bodies.find((b) => b.error)?.error).toBe('invalid_grant');
    const winner = bodies.find((b) => b.refresh_token) as Tokens;
    expect(await storedTokens(offerId)).toEqual([]);
    await expectError(await refresh(winner.refresh_token as string), 400, 'invalid_grant');
  });

  it('also answer at the older token endpoint /oid4vci/v1/token', async () => {
    const key = await dpopKey();
    const { tokens } = await redeem(refreshing, key);
    const path = '/oid4vci/v1/token';
    const { dpopNonce } = await nonces();
    const res = await form(
      path,
      { grant_type: 'refresh_token', refresh_token: tokens.refresh_token as string },
      await key.proof({ htm: 'POST', htu: `${issuer}${path}`, nonce: dpopNonce }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ token_type: 'DPoP', refresh_token: tokens.refresh_token });
  });

  it('refuses a proof of another DPoP key, or none, with invalid_dpop_proof, changing nothing', async () => {
    const key = await dpopKey();
    const { offerId, tokens } = await redeem(refreshing, key);
    const rt = tokens.refresh_token as string;
    const before = await storedTokens(offerId);
    await expectError(await refresh(rt, await dpopKey()), 400, 'invalid_dpop_proof');
    await expectError(await refresh(rt), 400, 'invalid_dpop_proof');
    expect(await storedTokens(offerId)).toEqual(before);
    // Not a reuse either: the right key still refreshes with the same token.
    expect((await refresh(rt, key)).status).toBe(200);
  });

  it('refuses a replayed DPoP proof with a bound refresh token, changing nothing', async () => {
    const key = await dpopKey();
    const { offerId, tokens } = await redeem(refreshing, key);
    const proof = await tokenProof(key);
    const rt = tokens.refresh_token as string;
    const send = (dpop: string) => form(TOKEN, { grant_type: 'refresh_token', refresh_token: rt }, dpop);
    expect((await send(proof)).status).toBe(200);
    const before = await storedTokens(offerId);
    await expectError(await send(proof), 400, 'invalid_dpop_proof');
    expect(await storedTokens(offerId)).toEqual(before);
    expect((await refresh(rt, key)).status).toBe(200);
  });

  it('refuses unknown tokens and missing parameters with their errors', async () => {
    await expectError(await refresh('vci_rt_nope'), 400, 'invalid_grant');
    await expectError(await form(TOKEN, { grant_type: 'refresh_token' }), 400, 'invalid_request');
    const expired = await redeem(refreshing);
    await f.sql.query(
      "update oid4vci_refresh_family set expires_at = now() - interval '1 second' where issuance_id = $1",
      [expired.offerId],
    );
    await expectError(await refresh(expired.tokens.refresh_token as string), 400, 'invalid_grant');
  });

  it('ends refreshing once the credential was revoked (invalid_grant), changing nothing', async () => {
    const key = await dpopKey();
    const { offerId, tokens } = await redeem(refreshing, key);
    expect((await fetchCredential(tokens.access_token, key)).res.status).toBe(200);
    // A refresh made before the revocation: its access token no longer gets a credential either.
    const early = (await (await refresh(tokens.refresh_token as string, key)).json()) as Tokens;
    const { rows } = await f.sql.query('select id from issued_credential where issuance_id = $1', [offerId]);
    const revoked = await refreshing.revokeCredential({ params: { id: rows[0].id } });
    expect(revoked.status).toBe(200);
    const before = await storedTokens(offerId);
    const res = await refresh(early.refresh_token as string, key);
    expect(await res.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'the credential was revoked',
    });
    expect(await storedTokens(offerId)).toEqual(before);
    await expectError((await fetchCredential(early.access_token, key)).res, 400, 'credential_request_denied');
    expect(await credentialCount(offerId)).toBe(1);
  });

  it('pause while the credential is suspended, and resume once it is unsuspended', async () => {
    const { offerId, tokens } = await redeem(refreshing);
    expect((await fetchCredential(tokens.access_token)).res.status).toBe(200);
    const { rows } = await f.sql.query('select id from issued_credential where issuance_id = $1', [offerId]);
    expect((await refreshing.suspendCredential({ params: { id: rows[0].id } })).status).toBe(200);
    const before = await storedTokens(offerId);
    const res = await refresh(tokens.refresh_token as string);
    expect(await res.json()).toEqual({
      error: 'invalid_grant',
      error_description: 'the credential is suspended',
    });
    expect(await storedTokens(offerId)).toEqual(before);
    expect((await refreshing.unsuspendCredential({ params: { id: rows[0].id } })).status).toBe(200);
    expect((await refresh(tokens.refresh_token as string)).status).toBe(200);
  });

  it('take a lifetime from the admin API between an hour and a year, and nothing else', async () => {
    const id = f.tenant.id;
    for (const wrong of [59, 3_599, 365 * DAY + 1, 1.5, '3600'])
      expect(
        (await f.t.admin.updateTenant({ params: { id }, body: { refresh_token_expires_in: wrong as never } }))
          .status,
      ).toBe(400);
    const tenant = await f.t.admin.getTenant({ params: { id } });
    expect(tenant.body).toMatchObject({ refresh_token_expires_in: null, offer_uri_scheme: null });
  });

  it('are swept by the worker once they can refresh nothing: expired, or their credential revoked', async () => {
    const live = await redeem(refreshing);
    const expired = await redeem(refreshing);
    const revoked = await redeem(refreshing);
    expect((await fetchCredential(revoked.tokens.access_token)).res.status).toBe(200);
    const { rows } = await f.sql.query('select id from issued_credential where issuance_id = $1', [
      revoked.offerId,
    ]);
    await refreshing.revokeCredential({ params: { id: rows[0].id } });
    await f.sql.query(
      "update oid4vci_refresh_family set expires_at = now() - interval '1 second' where issuance_id = $1",
      [expired.offerId],
    );
    expect(await sweepRefreshFamilies(f.t.service.context.orm)).toBeGreaterThanOrEqual(2);
    const families = async (offerId: string) =>
      (
        await f.sql.query('select count(*)::int as n from oid4vci_refresh_family where issuance_id = $1', [
          offerId,
        ])
      ).rows[0].n;
    expect([
      await families(live.offerId),
      await families(expired.offerId),
      await families(revoked.offerId),
    ]).toEqual([1, 0, 0]);
    expect((await refresh(live.tokens.refresh_token as string)).status).toBe(200);
  });
});
