import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { expect } from 'vitest';
import type { createClient, createIntegratorClient } from '../../../clients/integrator/src/index.js';
import { LOTE_SERVICE_TYPES } from '../../../server/trust/lists/lote/service-type-uris.js';
import { employeePayload } from '../fixtures.js';
import { makeLoteOperator } from '../lote-operator.js';
import { makeWalletProvider } from '../wallet-provider.js';
import type { Mailbox } from './mailbox.js';
import { addLoteSource, distributionPoint } from './trust-list.js';

type Service = ReturnType<typeof createClient>;
type Integrator = ReturnType<typeof createIntegratorClient>;

/** A pre-authorized code redeemed with a wallet attestation of `provider` (and its PoP). */
async function attestedTokenRequest(
  baseUrl: string,
  provider: Awaited<ReturnType<typeof makeWalletProvider>>,
  offer: { code: string; txCode: string },
) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const { kty, crv, x, y } = await exportJWK(publicKey);
  const pop = await new SignJWT({ aud: baseUrl, jti: randomBytes(16).toString('base64url') })
    .setProtectedHeader({ alg: 'ES256', typ: 'oauth-client-attestation-pop+jwt' })
    .setIssuedAt()
    .sign(privateKey);
  const res = await fetch(`${baseUrl}/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'oauth-client-attestation': await provider.attest({ kty, crv, x, y } as JWK),
      'oauth-client-attestation-pop': pop,
    },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code': offer.code,
      tx_code: offer.txCode,
    }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * An EU wallet providers list (ETSI TS 119 602) trusted for `wallet_provider`: a wallet whose
 * attestation chains to a listed provider redeems an offer, where before the list it could not.
 */
export async function walletProviderListLifecycle(
  baseUrl: string,
  service: Service,
  integrator: Integrator,
  tenantId: string,
  mailbox: Mailbox,
  email: string,
) {
  const [operator, provider, point] = await Promise.all([
    makeLoteOperator('EU Wallet Providers Scheme'),
    makeWalletProvider('Listed Wallet Provider'),
    distributionPoint(),
  ]);
  try {
    const created = await integrator.createIssuance({
      body: {
        credential_configuration_id: 'LEARCredentialEmployee',
        payload: employeePayload(),
        delivery: 'ui',
        email,
      },
    });
    if (created.status !== 201 || !created.body.credential_offer_uri)
      throw new Error(`offer: ${created.status}`);
    const location = decodeURIComponent(
      created.body.credential_offer_uri.split('credential_offer_uri=')[1] ?? '',
    );
    const offer = (await (await fetch(location)).json()) as {
      grants: Record<string, { 'pre-authorized_code': string }>;
    };
    const code =
      offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']?.['pre-authorized_code'] ?? '';
    const txCode =
      /activation code is: (\d{6})/.exec(await mailbox.find(email, /activation code is/))?.[1] ?? '';

    expect(await attestedTokenRequest(baseUrl, provider, { code, txCode })).toMatchObject({
      status: 401,
      body: { error: 'invalid_client' },
    });
    const wallets = [{ type: LOTE_SERVICE_TYPES.walletSolutionIssuance, certificates: [provider.rootX5c] }];
    point.publish(
      await operator.sign([{ name: 'Listed Wallet Provider', services: wallets }], { profile: 'wallet' }),
    );
    const added = await addLoteSource(service, tenantId, point.url, operator, {
      service_types: ['wallet_provider'],
    });
    expect(added).toMatchObject({ status: 201, body: { status: { state: 'ok', entities: 1 } } });
    expect(await attestedTokenRequest(baseUrl, provider, { code, txCode })).toMatchObject({
      status: 200,
      body: { access_token: expect.any(String) },
    });
    if (added.status === 201)
      await service.trustSources.deleteTrustSource({ params: { id: tenantId, sourceId: added.body.id } });
  } finally {
    await point.close();
  }
}
