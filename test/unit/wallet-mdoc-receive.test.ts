import { beforeAll, describe, expect, it } from 'vitest';
import {
  HolderWallet,
  inMemoryCredentialStore,
  inMemoryHolderCrypto,
  verifyMdoc,
} from '../../clients/wallet/src/index.js';
import { signIssuerSigned } from '../../server/formats/mso-mdoc/sign-issuer-signed.js';
import { deviceKeyPair, type MdocPki, mdocPki } from '../support/mdoc-issuer.js';
import {
  EMPLOYEE_DOCTYPE,
  EMPLOYEE_NAMESPACE,
  employeeElements,
  MDOC_ISSUER,
  mdocIssuerEndpoints,
  STATUS_URI,
} from '../support/mdoc-issuer-endpoints.js';

/**
 * The wallet receives mdocs made by the service's own signIssuerSigned and status lists made by its
 * signStatusListCwt, from an issuer in memory (test/support/mdoc-issuer-endpoints.ts): what is
 * tested is the wallet's flow, verification and storage, not the issuer.
 */
const DAY = 86_400_000;
let pki: MdocPki;
let other: MdocPki;
beforeAll(async () => {
  [pki, other] = await Promise.all([mdocPki('Acme'), mdocPki('Other')]);
});

function walletOf(fetchImpl: typeof fetch) {
  const store = inMemoryCredentialStore();
  return {
    store,
    wallet: new HolderWallet({ crypto: inMemoryHolderCrypto(), store, http: { fetch: fetchImpl } }),
  };
}

describe('the wallet receives an mdoc (mso_mdoc, OID4VCI Appendix A.2)', () => {
  it('redeems an EmployeeMdoc offer and stores the IssuerSigned with doctype, claims, device key and status', async () => {
    const issuer = mdocIssuerEndpoints(pki);
    const { wallet, store } = walletOf(issuer.fetch);
    const [stored] = await wallet.receive(issuer.offerUri, { trustAnchors: [pki.iaca.base64] });
    expect(stored).toMatchObject({
      format: 'mso_mdoc',
      doctype: EMPLOYEE_DOCTYPE,
      issuer: MDOC_ISSUER,
      claims: { [EMPLOYEE_NAMESPACE]: employeeElements() },
      statusReference: { idx: 5, uri: STATUS_URI },
      deviceKey: { kty: 'EC', crv: 'P-256' },
    });
    expect(await store.list()).toEqual([stored]);
    // The stored IssuerSigned is the one issued, and bound to the wallet's key for it.
    const again = await verifyMdoc(stored?.compact ?? '', {
      credentialIssuer: MDOC_ISSUER,
      holderKeys: stored?.format === 'mso_mdoc' ? [stored.deviceKey] : [],
      checkStatus: false,
    });
    expect(again.doctype).toBe(EMPLOYEE_DOCTYPE);
    // Receiving read the status, and asked for the list's CWT form.
    expect(issuer.state.statusAccepts).toEqual(['application/statuslist+cwt']);
  });

  it('reads the status from the CWT, and from the JWT when the server serves only that', async () => {
    const issuer = mdocIssuerEndpoints(pki);
    const { wallet } = walletOf(issuer.fetch);
    const [stored] = await wallet.receive(issuer.offerUri);
    const id = stored?.id ?? '';
    expect((await wallet.checkStatus(id)).label).toBe('VALID');
    issuer.revoke();
    expect((await wallet.checkStatus(id)).label).toBe('INVALID');
    issuer.state.jwtOnly = true;
    expect((await wallet.checkStatus(id)).label).toBe('INVALID');
    expect(issuer.state.statusAccepts.every((a) => a === 'application/statuslist+cwt')).toBe(true);
  });

  it('refuses an mdoc whose document signer does not chain to the trusted IACA, and stores nothing', async () => {
    const issuer = mdocIssuerEndpoints(pki);
    const { wallet, store } = walletOf(issuer.fetch);
    await expect(
      wallet.receive(issuer.offerUri, { trustAnchors: [other.iaca.base64] }),
    ).rejects.toMatchObject({
      check: 'x5chain',
    });
    expect(await store.list()).toEqual([]);
  });
});

describe('verifyMdoc names the check an mdoc fails', () => {
  const device = deviceKeyPair();
  const issue = (o: { validUntil?: Date; signedAt?: Date } = {}) =>
    signIssuerSigned(pki.signingKey, {
      doctype: EMPLOYEE_DOCTYPE,
      namespaces: { [EMPLOYEE_NAMESPACE]: employeeElements() },
      deviceKey: device.publicJwk,
      signedAt: o.signedAt ?? new Date(),
      validFrom: o.signedAt ?? new Date(),
      validUntil: o.validUntil ?? new Date(Date.now() + DAY),
    }).then((s) => s.issuerSigned);
  const verify = (bytes: Uint8Array, o: Partial<Parameters<typeof verifyMdoc>[1]> = {}) =>
    verifyMdoc(Buffer.from(bytes).toString('base64url'), {
      credentialIssuer: MDOC_ISSUER,
      holderKeys: [device.publicJwk],
      expectedDoctype: EMPLOYEE_DOCTYPE,
      trustAnchors: [pki.iaca.base64],
      ...o,
    });

  it('accepts the mdoc as issued', async () => {
    expect((await verify(await issue())).claims).toEqual({ [EMPLOYEE_NAMESPACE]: employeeElements() });
  });

  it('refuses a changed element, a changed signature, another doctype, another key, an expired mdoc', async () => {
    const issued = await issue();
    // "Ruiz" is only in its IssuerSignedItem: the item no longer matches its digest in the MSO.
    const changed = Buffer.from(issued);
    changed.write('Ruis', changed.indexOf('Ruiz'));
    await expect(verify(changed)).rejects.toMatchObject({ check: 'digest' });
    // The IssuerAuth's signature is the last 64 bytes of the IssuerSigned.
    const forged = Buffer.from(issued);
    forged[forged.length - 1] = (forged.at(-1) ?? 0) ^ 1;
    await expect(verify(forged)).rejects.toMatchObject({ check: 'signature' });
    await expect(verify(issued, { expectedDoctype: 'org.iso.18013.5.1.mDL' })).rejects.toMatchObject({
      check: 'doctype',
    });
    await expect(verify(issued, { holderKeys: [deviceKeyPair().publicJwk] })).rejects.toMatchObject({
      check: 'deviceKey',
    });
    const expired = await issue({
      signedAt: new Date(Date.now() - 3 * DAY),
      validUntil: new Date(Date.now() - DAY),
    });
    await expect(verify(expired)).rejects.toMatchObject({ check: 'validity' });
  });
});
