import { createHash, randomBytes } from 'node:crypto';
import { createLocalJWKSet, type JWTPayload, jwtVerify } from 'jose';
import type { TtlStore } from '../ephemeral/ttl-store.js';
import type { ConsoleClient } from './console-relying-party.js';

/** How long a started sign-in may take (the login page's own session is shorter). */
const PENDING_SECONDS = 600;

interface Pending {
  tenantId: string;
  clientId: string;
  nonce: string;
  verifier: string;
}

const b64 = (n: number) => randomBytes(n).toString('base64url');
const pendingKey = (state: string) => `console:sign-in:${state}`;
const basic = (c: ConsoleClient) =>
  `Basic ${Buffer.from(`${encodeURIComponent(c.clientId)}:${encodeURIComponent(c.clientSecret)}`).toString('base64')}`;

/**
 * The console as a relying party of the service's own OpenID provider, over HTTP like any other: it
 * pushes its request (PAR, PKCE S256, nonce), and the browser goes to /oauth2/authorize with the
 * request_uri. `state` is also the browser's sign-in cookie, so only this browser can finish.
 */
export async function startEmployeeSignIn(
  ttl: TtlStore,
  opUrl: string,
  tenantId: string,
  client: ConsoleClient,
  redirectUri: string,
) {
  const state = b64(32);
  const pending: Pending = { tenantId, clientId: client.clientId, nonce: b64(16), verifier: b64(32) };
  const res = await fetch(`${opUrl}/oauth2/par`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(client) },
    body: new URLSearchParams({
      response_type: 'code',
      client_id: client.clientId,
      redirect_uri: redirectUri,
      scope: 'openid',
      state,
      nonce: pending.nonce,
      code_challenge: createHash('sha256').update(pending.verifier).digest('base64url'),
      code_challenge_method: 'S256',
    }),
  });
  const pushed = (await res.json()) as { request_uri?: string };
  if (res.status !== 201 || !pushed.request_uri) throw new Error(`console PAR answered ${res.status}`);
  await ttl.set(pendingKey(state), JSON.stringify(pending), PENDING_SECONDS);
  const query = new URLSearchParams({ client_id: client.clientId, request_uri: pushed.request_uri });
  return { state, location: `${opUrl}/oauth2/authorize?${query}`, maxAgeSeconds: PENDING_SECONDS };
}

/** The started sign-in of a state, spent: a state is good once. */
export async function takePendingSignIn(ttl: TtlStore, state: string): Promise<Pending | undefined> {
  const raw = await ttl.get(pendingKey(state));
  if (!raw) return undefined;
  await ttl.delete(pendingKey(state));
  return JSON.parse(raw) as Pending;
}

/**
 * The code exchanged at the token endpoint (client secret, PKCE verifier) and the ID token checked:
 * signed by a key of the provider's JWKS, its issuer, our client as audience, our nonce, not expired.
 */
export async function finishEmployeeSignIn(
  opUrl: string,
  client: ConsoleClient,
  pending: Pending,
  code: string,
  redirectUri: string,
): Promise<JWTPayload> {
  const res = await fetch(`${opUrl}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: basic(client) },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: redirectUri,
      code_verifier: pending.verifier,
    }),
  });
  const tokens = (await res.json()) as { id_token?: string; error?: string };
  if (res.status !== 200 || !tokens.id_token)
    throw new SignInRefused(`token endpoint: ${tokens.error ?? res.status}`);
  const jwks = (await (await fetch(`${opUrl}/oauth2/jwks`)).json()) as Parameters<
    typeof createLocalJWKSet
  >[0];
  const { payload } = await jwtVerify(tokens.id_token, createLocalJWKSet(jwks), {
    issuer: opUrl,
    audience: client.clientId,
  });
  if (payload.nonce !== pending.nonce) throw new SignInRefused('the ID token is not for this sign-in');
  return payload;
}

/** A sign-in that must not go on; `reason` is for the audit log, never for the page. */
export class SignInRefused extends Error {}
