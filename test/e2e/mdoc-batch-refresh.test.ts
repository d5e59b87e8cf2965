import { calculateJwkThumbprint, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { employeePayload } from '../support/fixtures.js';
import { mailedOffer } from '../support/mailed-offer.js';
import { EMPLOYEE_NS, presentEmployeeMdoc, redeemMdocBatch } from '../support/mdoc-wallet.js';
import { trustDeploymentCa } from '../support/receive-mdoc.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { ThirdPartyWallet } from '../support/third-party-wallet.js';

/**
 * The employee mdoc over the two grants beside the first issuance: a batch (OID4VCI 1.0 section 8.2:
 * one mdoc per proven device key, each MSO naming its own key, each presentable) and credential
 * refresh (section 13.5) as a third-party wallet (@openid4vc/openid4vci, reading mdocs with
 * @owf/mdoc) does it, DPoP-bound: a fresh mdoc for a new device key.
 */
let f: TenantFixture;
let n = 0;
const email = () => `mdoc-grants-${++n}@example.test`;

beforeAll(async () => {
  f = await startTenantFixture({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' });
  await trustDeploymentCa(f.t, f.tenant.id);
  await f.t.admin.updateTenant({ params: { id: f.tenant.id }, body: { refresh_token_expires_in: 86_400 } });
});
afterAll(() => f.stop());

/** The thumbprint of a private JWK's public part. */
const publicThumbprint = async (jwk: JWK) => {
  const { kty, crv, x, y } = jwk;
  return calculateJwkThumbprint({ kty, crv, x, y } as JWK);
};

describe('the employee mdoc by batch and by refresh', () => {
  it('issues a batch of mdocs, one per device key, each presentable with its own key', async () => {
    const { offerUri, txCode, offerId } = await mailedOffer(
      f.integrator,
      f.smtp,
      email(),
      { [EMPLOYEE_NS]: employeePayload() },
      'EmployeeMdoc',
    );
    const batch = await redeemMdocBatch(f.t.baseUrl, offerUri, txCode, 3);
    expect(batch).toHaveLength(3);
    expect(new Set(batch.map((m) => m.credential)).size).toBe(3);
    const issued = await f.integrator.getIssuance({ params: { id: offerId } });
    expect(issued.status === 200 && issued.body.credentials.map((c) => c.status)).toEqual([
      'valid',
      'valid',
      'valid',
    ]);
    // Each presents under its own device key; one presented with another's key is refused.
    for (const mdoc of batch)
      expect((await presentEmployeeMdoc(f.integrator, mdoc)).result).toMatchObject({ status: 'verified' });
    const [a, b] = batch;
    const swapped = await presentEmployeeMdoc(f.integrator, {
      credential: a?.credential ?? '',
      devicePrivateKey: b?.devicePrivateKey as JWK,
    });
    expect(swapped.result).toMatchObject({ status: 'failed' });
    expect(await publicThumbprint(a?.devicePrivateKey as JWK)).not.toBe(
      await publicThumbprint(b?.devicePrivateKey as JWK),
    );
  });

  it('refreshes: a third-party wallet gets a fresh mdoc for a new device key with its DPoP-bound refresh token', async () => {
    const { offerUri, txCode } = await mailedOffer(
      f.integrator,
      f.smtp,
      email(),
      { [EMPLOYEE_NS]: employeePayload() },
      'EmployeeMdoc',
    );
    const wallet = new ThirdPartyWallet();
    const first = await wallet.receive(offerUri, txCode, { dpop: true });
    expect(first.header).toMatchObject({ doctype: EMPLOYEE_NS });
    expect(first.refreshToken).toMatch(/^vci_rt_/);
    const issuer = f.t.service.context.config.issuerUrl;
    const fresh = await wallet.refresh(issuer, 'EmployeeMdoc', first.refreshToken as string, {
      dpopJwk: first.dpopJwk as JWK,
    });
    expect(fresh.header).toMatchObject({ doctype: EMPLOYEE_NS });
    expect(fresh.claims).toEqual(first.claims);
    expect(fresh.credential).not.toBe(first.credential);
    expect(await calculateJwkThumbprint(fresh.holderJwk)).not.toBe(
      await calculateJwkThumbprint(first.holderJwk),
    );
    // Without the DPoP key the refresh token is refused.
    await expect(wallet.refresh(issuer, 'EmployeeMdoc', first.refreshToken as string)).rejects.toMatchObject({
      errorResponse: { error: 'invalid_dpop_proof' },
    });
  });
});
