import { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { employeePayload } from '../support/fixtures.js';
import { holderKey } from '../support/proof-jwt.js';
import { startSmtpCatcher } from '../support/smtp-catcher.js';
import { expectStatus, type Figure, measure, startBenchService } from './harness.js';

const PRE_AUTH = 'urn:ietf:params:oauth:grant-type:pre-authorized_code';

/**
 * Issuance figures against PostgreSQL and Redis: offers created, full issuances (offer, mailed
 * tx_code, token, nonce, credential), and the credential endpoint alone.
 */
export async function issuanceBench(): Promise<Figure[]> {
  const smtp = await startSmtpCatcher();
  const b = await startBenchService({ SMTP_URL: smtp.url });
  const issuer = b.issuerUrl;
  try {
    const tenant = await b.admin.createTenant({ body: { id: 'bench', name: 'Bench', delivery: 'email' } });
    if (tenant.status !== 201) throw new Error('tenant not created');
    const integrator = createIntegratorClient({ baseUrl: b.baseUrl, token: tenant.body.integrator_token });
    const createOffer = async (email: string) => {
      const res = await integrator.createIssuance({
        body: {
          credential_configuration_id: 'LEARCredentialEmployee',
          payload: employeePayload(),
          delivery: 'ui',
          email,
        },
      });
      if (res.status !== 201) throw new Error(`offer: ${res.status}`);
      return res.body.offer_id;
    };
    const form = (fields: Record<string, string>) => ({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields),
    });
    const json = (body: unknown, token?: string) => ({
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    /** A wallet's steps up to the access token. */
    const redeem = async (offerId: string, email: string) => {
      const offer = (await (await fetch(`${issuer}/oid4vci/v1/credential-offer/${offerId}`)).json()) as {
        grants: Record<string, { 'pre-authorized_code': string }>;
      };
      const mail = await smtp.waitForMail((m) => m.to.includes(email), 30_000);
      const txCode = mail.raw.match(/activation code is: (\d{6})/)?.[1] ?? '';
      const code = offer.grants[PRE_AUTH]?.['pre-authorized_code'] ?? '';
      const res = await fetch(
        `${issuer}/oid4vci/v1/token`,
        form({ grant_type: PRE_AUTH, 'pre-authorized_code': code, tx_code: txCode }),
      );
      expectStatus(res, 200, 'token');
      return ((await res.json()) as { access_token: string }).access_token;
    };
    const credentialRequest = async (accessToken: string) => {
      const { c_nonce } = (await (await fetch(`${issuer}/oid4vci/v1/nonce`, { method: 'POST' })).json()) as {
        c_nonce: string;
      };
      const key = await holderKey();
      return json(
        {
          credential_configuration_id: 'LEARCredentialEmployee',
          proofs: { jwt: [await key.proof({ aud: issuer, nonce: c_nonce })] },
        },
        accessToken,
      );
    };

    const figures = [
      await measure(
        'issuance: create offer (POST /api/v1/issuances, ui delivery, tx_code mail queued)',
        500,
        8,
        (i) => createOffer(`offer-${i}@bench.test`),
      ),
      await measure(
        'issuance: full flow (offer, mailed tx_code, token, nonce, credential)',
        200,
        8,
        async (i) => {
          const email = `full-${i}@bench.test`;
          const accessToken = await redeem(await createOffer(email), email);
          expectStatus(
            await fetch(`${issuer}/oid4vci/v1/credential`, await credentialRequest(accessToken)),
            200,
            'credential',
          );
        },
      ),
    ];
    // The credential endpoint alone: tokens, nonces and proofs are prepared first.
    const prepared = await Promise.all(
      Array.from({ length: 400 }, async (_, i) => {
        const email = `alone-${i}@bench.test`;
        return credentialRequest(await redeem(await createOffer(email), email));
      }),
    );
    figures.push(
      await measure(
        'issuance: credential endpoint alone (proof check, status entry, SD-JWT VC signing)',
        prepared.length,
        8,
        async (i) =>
          expectStatus(await fetch(`${issuer}/oid4vci/v1/credential`, prepared[i]), 200, 'credential'),
      ),
    );
    return figures;
  } finally {
    await b.stop();
    await smtp.close();
  }
}
