import { employeePayload } from '../support/fixtures.js';
import { holderKey } from '../support/proof-jwt.js';
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

/** An offer for the wallet (ui delivery): the tx_code is mailed to `email`. */
async function createOffer(ctx: ScenarioContext, i: number, email: string) {
  const res = await tenantOf(ctx, i).integrator.createIssuance({
    body: {
      credential_configuration_id: 'LEARCredentialEmployee',
      payload: employeePayload(),
      delivery: 'ui',
      email,
    },
  });
  if (res.status !== 201) throw new Error(`offer: ${res.status}`);
  return res.body.offer_id;
}

/** A wallet's steps up to the access token: the offer, the mailed tx_code, the token request. */
async function redeem(ctx: ScenarioContext, offerId: string, email: string) {
  const issuer = ctx.service.issuerUrl;
  const offer = (await (await fetch(`${issuer}/oid4vci/v1/credential-offer/${offerId}`)).json()) as {
    grants: Record<string, { 'pre-authorized_code': string }>;
  };
  const mail = await ctx.smtp.waitForMail((m) => m.to.includes(email), 60_000);
  const txCode = mail.raw.match(/activation code is: (\d{6})/)?.[1] ?? '';
  const code = offer.grants[PRE_AUTH]?.['pre-authorized_code'] ?? '';
  const res = await fetch(
    `${issuer}/oid4vci/v1/token`,
    form({ grant_type: PRE_AUTH, 'pre-authorized_code': code, tx_code: txCode }),
  );
  expectStatus(res, 200, 'token');
  return ((await res.json()) as { access_token: string }).access_token;
}

/** A fresh c_nonce and a proof of a fresh holder key over it, ready to send to the credential endpoint. */
async function credentialRequest(ctx: ScenarioContext, accessToken: string) {
  const issuer = ctx.service.issuerUrl;
  const nonce = await fetch(`${issuer}/oid4vci/v1/nonce`, { method: 'POST' });
  const { c_nonce } = (await nonce.json()) as { c_nonce: string };
  const key = await holderKey();
  const proof = await key.proof({ aud: issuer, nonce: c_nonce });
  return json(
    { credential_configuration_id: 'LEARCredentialEmployee', proofs: { jwt: [proof] } },
    accessToken,
  );
}

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
    name: 'issuance: credential endpoint alone (proof check, status entry, SD-JWT VC signing)',
    matches: 'issue',
    operations: 400,
    halfPeak: true,
    prepare: async (ctx, total) => {
      const prepared = await inParallel(total, 8, async (i) => {
        const email = `alone-${ctx.pass}-${i}@bench.test`;
        return credentialRequest(ctx, await redeem(ctx, await createOffer(ctx, i, email), email));
      });
      const url = `${ctx.service.issuerUrl}/oid4vci/v1/credential`;
      return async (i) => expectStatus(await fetch(url, prepared[i]), 200, 'credential');
    },
  },
];
