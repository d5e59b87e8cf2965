import { createHash, randomBytes } from 'node:crypto';
import { expect } from 'vitest';
import type { createAdminClient } from '../../../clients/integrator/src/index.js';
import type { HolderWallet } from '../../../clients/wallet/src/index.js';
import { pushSignIn } from '../pushed-sign-in.js';

const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/**
 * An OpenID Connect login through the hosted page, as a relying party and a browser do it without
 * a browser: register a client, push its request (PAR), open /oauth2/authorize with the request_uri
 * (keeping the page's cookie), let the wallet
 * answer the page's same-device request, complete in the same "browser", exchange the code (PKCE).
 */
export async function oidcLogin(
  baseUrl: string,
  admin: ReturnType<typeof createAdminClient>,
  tenantId: string,
  wallet: HolderWallet,
) {
  const redirectUri = 'https://rp.example/callback';
  const client = await admin.createOidcClient({
    params: { id: tenantId },
    body: {
      client_name: 'ACME Intranet',
      redirect_uris: [redirectUri],
      credential_configuration_id: 'LEARCredentialEmployee',
      claims_mapping: { given_name: ['mandatee', 'firstName'] },
    } as never,
  });
  expect(client.status).toBe(201);
  if (client.status !== 201) return;
  const verifier = randomBytes(32).toString('base64url');
  const secret = client.body.client_secret as string;
  const params = {
    response_type: 'code',
    client_id: client.body.client_id,
    redirect_uri: redirectUri,
    scope: 'openid',
    state: randomBytes(12).toString('base64url'),
    nonce: randomBytes(12).toString('base64url'),
    code_challenge: s256(verifier),
    code_challenge_method: 'S256',
  };
  const pushed = await pushSignIn(baseUrl, params, { basic: { id: client.body.client_id, secret } });
  expect(pushed.status, JSON.stringify(pushed.json)).toBe(201);
  const page = await fetch(pushed.url, { redirect: 'manual' });
  const html = await page.text();
  expect(page.status, html.slice(0, 300)).toBe(200);
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const link = /id="same-device"[^>]*href="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&') ?? '';
  const completeUrl = /data-complete="([^"]+)"/.exec(html)?.[1]?.replaceAll('&amp;', '&');
  const sessionId = /data-session="([^"]+)"/.exec(html)?.[1];
  // The same-device link: the wallet sends the browser back with a response_code (HAIP 1.0).
  const answered = await wallet.present(link, { allowHttp: true });
  const done = await fetch(
    answered.redirectUri ??
      (completeUrl
        ? new URL(completeUrl, baseUrl)
        : `${baseUrl}/oauth2/authorize/complete?session=${sessionId}`),
    { redirect: 'manual', headers: { cookie } },
  );
  const location = new URL(done.headers.get('location') ?? '', baseUrl);
  expect(location.origin + location.pathname).toBe(redirectUri);
  const token = await fetch(`${baseUrl}/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${client.body.client_id}:${secret}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: location.searchParams.get('code') ?? '',
      redirect_uri: redirectUri,
      code_verifier: verifier,
    }),
  });
  const tokens = (await token.json()) as { id_token?: string };
  expect(token.status, JSON.stringify(tokens)).toBe(200);
  const claims = JSON.parse(Buffer.from(tokens.id_token?.split('.')[1] ?? '', 'base64url').toString());
  expect(claims).toMatchObject({ given_name: 'Ana' });
}
