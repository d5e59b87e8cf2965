import { employeePayload } from '../support/fixtures.js';
import { holderKey } from '../support/proof-jwt.js';
import { type BenchWallet, dpopWallet } from './bench-wallet.js';
import { expectStatus } from './harness.js';
import { inParallel, type Scenario, type ScenarioContext, tenantOf } from './scenario.js';

const PRE_AUTH = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields),
});
const json = (body: unknown, token: string) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  body: JSON.stringify(body),
});

/** What an offer is for: a credential configuration and its payload. */
export interface OfferedCredential {
  id: string;
  payload: () => Record<string, unknown>;
}

/** The employee credential as an SD-JWT VC, which the figures measure unless told otherwise. */
export const SD_JWT_EMPLOYEE: OfferedCredential = { id: 'LEARCredentialEmployee', payload: employeePayload };

/**
 * An offer for the wallet (ui delivery): with the pre-authorized code the tx_code is mailed to
 * `email` now; with the authorization code the one-time code is mailed at sign-in.
 */
export async function createOffer(
  ctx: ScenarioContext,
  i: number,
  email: string,
  grant: 'pre-authorized_code' | 'authorization_code' = 'pre-authorized_code',
  credential: OfferedCredential = SD_JWT_EMPLOYEE,
) {
  const res = await tenantOf(ctx, i).integrator.createIssuance({
    body: {
      credential_configuration_id: credential.id,
      payload: credential.payload(),
      delivery: 'ui',
      email,
      ...(grant === 'authorization_code' ? { grant_type: 'authorization_code' as const } : {}),
    },
  });
  if (res.status !== 201) throw new Error(`offer: ${res.status}`);
  return res.body.offer_id;
}

/** The credential offer by reference, as the wallet fetches it from the QR code's link. */
export async function fetchOffer<Grants>(ctx: ScenarioContext, offerId: string) {
  const res = await fetch(`${ctx.service.issuerUrl}/oid4vci/v1/credential-offer/${offerId}`);
  return ((await res.json()) as { grants: Grants }).grants;
}

/**
 * The 6-digit code of the one mail to `email` (tx_code or sign-in: the same template), read from
 * what the in-process SMTP server received; every address is used once, so it is the right mail.
 */
export async function mailedCode(ctx: ScenarioContext, email: string) {
  const mail = await ctx.smtp.waitForMail((m) => m.to.includes(email), 60_000);
  return mail.raw.match(/activation code is: (\d{6})/)?.[1] ?? '';
}

/** The token request of the pre-authorized code grant, for the offer and its mailed tx_code. */
async function preAuthorizedTokenRequest(ctx: ScenarioContext, offerId: string, email: string) {
  const grants = await fetchOffer<Record<string, { 'pre-authorized_code': string }>>(ctx, offerId);
  const code = grants[PRE_AUTH]?.['pre-authorized_code'] ?? '';
  return { grant_type: PRE_AUTH, 'pre-authorized_code': code, tx_code: await mailedCode(ctx, email) };
}

/** A wallet's steps up to the access token: the offer, the mailed tx_code, the token request. */
export async function redeem(ctx: ScenarioContext, offerId: string, email: string) {
  const fields = await preAuthorizedTokenRequest(ctx, offerId, email);
  const res = await fetch(`${ctx.service.issuerUrl}/oid4vci/v1/token`, form(fields));
  expectStatus(res, 200, 'token');
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A proof of a fresh holder key over `cNonce`: the credential request's body. */
async function credentialBody(ctx: ScenarioContext, cNonce: string, configurationId = SD_JWT_EMPLOYEE.id) {
  const proof = await (await holderKey()).proof({ aud: ctx.service.issuerUrl, nonce: cNonce });
  return { credential_configuration_id: configurationId, proofs: { jwt: [proof] } };
}

/** A fresh c_nonce and a proof of a fresh holder key over it, ready to send to the credential endpoint. */
export async function credentialRequest(
  ctx: ScenarioContext,
  accessToken: string,
  configurationId = SD_JWT_EMPLOYEE.id,
) {
  const nonce = await fetch(`${ctx.service.issuerUrl}/oid4vci/v1/nonce`, { method: 'POST' });
  const { c_nonce } = (await nonce.json()) as { c_nonce: string };
  return json(await credentialBody(ctx, c_nonce, configurationId), accessToken);
}

/** The last two requests of every flow, as `wallet` sends them: nonce, then credential. */
export async function receiveCredential(ctx: ScenarioContext, wallet: BenchWallet, accessToken: string) {
  const body = await credentialBody(ctx, await wallet.cNonce());
  const res = await wallet.post('/oid4vci/v1/credential', { json: body }, accessToken);
  expectStatus(res, 200, 'credential');
}

/** The SD-JWT VC credential endpoint figure's name (the mdoc one is printed beside it). */
export const SD_JWT_CREDENTIAL_ENDPOINT =
  'issuance: credential endpoint alone (proof check, status entry, SD-JWT VC signing)';

/** Issuance figures: offers created, full five-request issuances, the credential endpoint alone. */
export const issuanceScenarios: Scenario[] = [
  {
    name: 'issuance: create offer (POST /api/v1/issuances, ui delivery, tx_code mail queued)',
    matches: 'issue',
    operations: 400,
    prepare: async (ctx) => (i) => createOffer(ctx, i, `offer-${ctx.pass}-${i}@bench.test`),
  },
  {
    name: 'issuance: full flow (offer, mailed tx_code, token, nonce, credential)',
    matches: 'issue',
    operations: 200,
    prepare: async (ctx) => async (i) => {
      const email = `full-${ctx.pass}-${i}@bench.test`;
      const accessToken = await redeem(ctx, await createOffer(ctx, i, email), email);
      const res = await fetch(
        `${ctx.service.issuerUrl}/oid4vci/v1/credential`,
        await credentialRequest(ctx, accessToken),
      );
      expectStatus(res, 200, 'credential');
    },
  },
  {
    // Beside the full flow above, what DPoP costs: a proof checked (and its jti spent) at the token
    // and credential endpoints, and the use_dpop_nonce round trip of a wallet's first proof.
    name: 'issuance: pre-authorized code flow with DPoP (offer, mailed tx_code, DPoP token, nonce, credential)',
    matches: 'issue',
    operations: 200,
    prepare: async (ctx) => async (i) => {
      const email = `dpop-${ctx.pass}-${i}@bench.test`;
      const wallet = await dpopWallet(ctx.service.issuerUrl);
      const fields = await preAuthorizedTokenRequest(ctx, await createOffer(ctx, i, email), email);
      const res = await wallet.post('/oid4vci/v1/token', { form: fields });
      expectStatus(res, 200, 'token');
      await receiveCredential(ctx, wallet, ((await res.json()) as { access_token: string }).access_token);
    },
  },
  credentialEndpointAlone(SD_JWT_CREDENTIAL_ENDPOINT, 'issue'),
];

/**
 * The credential endpoint alone: offers redeemed and proofs signed before the clock starts, the
 * measured operation one credential request. For the SD-JWT VC, and as mdoc.bench.ts has it, the mdoc.
 */
export function credentialEndpointAlone(
  name: string,
  matches: Scenario['matches'],
  credential: OfferedCredential = SD_JWT_EMPLOYEE,
): Scenario {
  return {
    name,
    matches,
    operations: 400,
    halfPeak: true,
    prepare: async (ctx, total) => {
      const prepared = await inParallel(total, 8, async (i) => {
        const email = `alone-${credential.id}-${ctx.pass}-${i}@bench.test`;
        const offer = await createOffer(ctx, i, email, 'pre-authorized_code', credential);
        return credentialRequest(ctx, await redeem(ctx, offer, email), credential.id);
      });
      const url = `${ctx.service.issuerUrl}/oid4vci/v1/credential`;
      return async (i) => expectStatus(await fetch(url, prepared[i]), 200, 'credential');
    },
  };
}
