import { createHash, randomBytes } from 'node:crypto';
import { attestedInstance, type BenchWallet, dpopWallet, plainWallet } from './bench-wallet.js';
import { expectStatus } from './harness.js';
import { createOffer, fetchOffer, mailedCode, receiveCredential } from './issuance.bench.js';
import { inParallel, type Scenario, type ScenarioContext } from './scenario.js';

// Never followed: the code is read from the 303's Location, as the wallet's app would receive it.
const REDIRECT = 'https://wallet.example/callback';

/** RFC 7636 S256, the only method the issuer takes (HAIP). */
const pkce = () => {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
};

/** RFC 9126: the authorization request for the offer's issuer_state, pushed; its request_uri. */
async function pushAuthorizationRequest(ctx: ScenarioContext, wallet: BenchWallet, offerId: string) {
  const grants = await fetchOffer<{ authorization_code: { issuer_state: string } }>(ctx, offerId);
  const { verifier, challenge } = pkce();
  const res = await wallet.post('/oauth2/par', {
    form: {
      response_type: 'code',
      client_id: wallet.clientId,
      redirect_uri: REDIRECT,
      scope: 'LEARCredentialEmployee',
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: randomBytes(8).toString('base64url'),
      issuer_state: grants.authorization_code.issuer_state,
    },
  });
  expectStatus(res, 201, 'PAR');
  return { requestUri: ((await res.json()) as { request_uri: string }).request_uri, verifier };
}

/**
 * The holder's browser: the hosted sign-in page (which mails the one-time code), the code read from
 * the real SMTP round trip, the form posted; the authorization code of the redirect.
 */
async function signIn(ctx: ScenarioContext, wallet: BenchWallet, requestUri: string, email: string) {
  const issuer = ctx.service.issuerUrl;
  const query = new URLSearchParams({ client_id: wallet.clientId, request_uri: requestUri });
  const page = await fetch(`${issuer}/oauth2/authorize?${query}`, { redirect: 'manual' });
  expectStatus(page, 200, 'sign-in page');
  const session = /name="session" value="([^"]+)"/.exec(await page.text())?.[1] ?? '';
  const done = await fetch(`${issuer}/oauth2/authorize/issuance`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ session, one_time_code: await mailedCode(ctx, email) }),
    redirect: 'manual',
  });
  expectStatus(done, 303, 'sign-in');
  return new URL(done.headers.get('location') ?? '').searchParams.get('code') ?? '';
}

/** One operation: a fresh authorization code offer taken through to its credential by `wallet`. */
async function authorizationCodeFlow(ctx: ScenarioContext, i: number, wallet: BenchWallet, email: string) {
  const offerId = await createOffer(ctx, i, email, 'authorization_code');
  const { requestUri, verifier } = await pushAuthorizationRequest(ctx, wallet, offerId);
  const code = await signIn(ctx, wallet, requestUri, email);
  const res = await wallet.post('/oauth2/token', {
    form: { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: REDIRECT },
  });
  expectStatus(res, 200, 'token');
  await receiveCredential(ctx, wallet, ((await res.json()) as { access_token: string }).access_token);
}

/** Issuance figures of the authorization code flow, to set beside the pre-authorized full flow. */
export const authorizationCodeScenarios: Scenario[] = [
  {
    name: 'issuance: full authorization code flow (offer, PAR, mailed one-time code sign-in, token, nonce, credential)',
    matches: 'issue',
    operations: 200,
    prepare: async (ctx) => async (i) =>
      authorizationCodeFlow(ctx, i, plainWallet(ctx.service.issuerUrl), `ac-${ctx.pass}-${i}@bench.test`),
  },
  {
    name: 'issuance: authorization code flow with DPoP and wallet attestation (offer, attested PAR, mailed one-time code sign-in, DPoP token, nonce, credential)',
    matches: 'issue',
    operations: 200,
    prepare: async (ctx, total) => {
      const provider = ctx.walletProvider;
      if (!provider) throw new Error('the bench service was started without a wallet provider');
      // Wallets get their attestation from their provider long before an issuance: not measured.
      const instances = await inParallel(total, 8, () => attestedInstance(provider));
      return async (i) => {
        const wallet = await dpopWallet(ctx.service.issuerUrl, instances[i]);
        await authorizationCodeFlow(ctx, i, wallet, `ac-dpop-${ctx.pass}-${i}@bench.test`);
      };
    },
  },
];
