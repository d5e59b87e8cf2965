import { X509Certificate } from 'node:crypto';
import { IssuerSigned } from '@owf/mdoc';
import type { JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CachedStatusListFetcher } from '../../server/oid4vp/verification/status-list-cache.js';
import { employeePayload } from '../support/fixtures.js';
import { EMPLOYEE_NS, presentEmployeeMdoc } from '../support/mdoc-wallet.js';
import { issueDirectMdoc, receiveMdoc, trustDeploymentCa } from '../support/receive-mdoc.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { until } from '../support/until.js';

/**
 * The employee credential as an ISO mdoc, end to end on the real service: the integrator offers
 * `EmployeeMdoc`, a wallet redeems it (pre-authorized code with the mailed tx_code) and gets an
 * IssuerSigned that @owf/mdoc (not ours) reads, its signer certified by the deployment's CA; a verifier session
 * asks for it by doctype, and a holder made of third-party libraries (@openid4vc/openid4vp for the
 * request and the encrypted response, @owf/mdoc for the DeviceResponse) answers over
 * direct_post.jwt; after revocation the CWT status list refuses it.
 */
const NS = EMPLOYEE_NS;
let f: TenantFixture;
let caRoot: string;

beforeAll(async () => {
  f = await startTenantFixture({ LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent' });
  // mdocs are trusted only by their document signer's chain: the tenant trusts the deployment's CA.
  caRoot = await trustDeploymentCa(f.t, f.tenant.id);
});
afterAll(() => f.stop());

const present = (credential: string, devicePrivateKey: JWK) =>
  presentEmployeeMdoc(f.integrator, { credential, devicePrivateKey });

describe('the employee credential as an ISO mdoc', () => {
  let received: Awaited<ReturnType<typeof receiveMdoc>>;

  it('is delivered directly, bound to the holder key given, and verified', async () => {
    const direct = await issueDirectMdoc(f.integrator);
    const { result } = await present(direct.credential, direct.devicePrivateKey);
    expect(result).toMatchObject({ status: 'verified' });
  });

  it('is described in the issuer metadata as OID4VCI appendix A.2 asks', async () => {
    const metadata = (await (await fetch(`${f.t.baseUrl}/.well-known/openid-credential-issuer`)).json()) as {
      credential_configurations_supported: Record<string, Record<string, unknown>>;
    };
    expect(metadata.credential_configurations_supported.EmployeeMdoc).toMatchObject({
      format: 'mso_mdoc',
      doctype: NS,
      scope: 'EmployeeMdoc',
      cryptographic_binding_methods_supported: ['cose_key'],
      credential_signing_alg_values_supported: [-7, -9],
      credential_metadata: {
        claims: expect.arrayContaining([
          { path: [NS, 'mandatee'], mandatory: true, display: expect.any(Array) },
        ]),
      },
    });
  });

  it('is issued over the pre-authorized code flow and read by @owf/mdoc, its signer certified by the CA', async () => {
    received = await receiveMdoc(f, 'mdoc-holder@example.test');
    // Read by @owf/mdoc, not by this service: the doctype, the elements, and a document signer whose
    // certificate the deployment's CA signed, with the Document Signer extended key usage.
    const issuerSigned = IssuerSigned.fromEncodedForOid4Vci(received.credential);
    expect(issuerSigned.issuerAuth.mobileSecurityObject.docType).toBe(NS);
    const elements = issuerSigned.issuerNamespaces?.issuerNamespaces.get(NS)?.map((i) => i.elementIdentifier);
    expect(elements?.sort()).toEqual(['mandatee', 'mandator', 'power']);
    const [leaf] = issuerSigned.issuerAuth.certificateChain;
    const signer = new X509Certificate(Buffer.from(leaf as Uint8Array));
    expect(signer.verify(new X509Certificate(Buffer.from(caRoot, 'base64')).publicKey)).toBe(true);
    expect(signer.toLegacyObject().ext_key_usage).toContain('1.0.18013.5.1.2');
  });

  it('is verified over direct_post.jwt with its claims by namespace, trusted by its x5chain', async () => {
    const { answer, result } = await present(received.credential, received.devicePrivateKey);
    expect(answer.status).toBe(200);
    expect(result).toMatchObject({
      status: 'verified',
      claims: { [NS]: { mandatee: employeePayload().mandatee, power: employeePayload().power } },
      credentials: [{ id: 'credential', format: 'mso_mdoc', credential_type: NS, trust: { method: 'x509' } }],
    });
  });

  it('is refused once revoked, read from the CWT status list', async () => {
    const issuance = await f.integrator.getIssuance({ params: { id: received.offerId } });
    const id = issuance.status === 200 ? issuance.body.credentials[0]?.id : undefined;
    expect(id).toBeDefined();
    expect((await f.integrator.revokeCredential({ params: { id: id as string } })).status).toBe(200);
    // The verifier keeps a list for its ttl (60 s); dropping its copy stands for that minute passing.
    const lists = f.t.service.context.verifier.fetchStatusListCwt as CachedStatusListFetcher;
    const outcome = await until(
      async () => {
        lists.clear();
        return (await present(received.credential, received.devicePrivateKey)).result;
      },
      (r) => r.status === 'failed',
      30_000,
    );
    expect(outcome).toMatchObject({ status: 'failed', reason: 'revoked' });
  });
});
