import { digest } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { createIntegratorClient } from '../../clients/integrator/src/index.js';
import { WalletError } from '../../clients/wallet/src/index.js';
import { KeyEncryption } from '../../server/keys/key-encryption.js';
import { LocalKeyStore } from '../../server/keys/local-key-store.js';
import { issueDirectCredential } from '../support/fixtures.js';
import { walletHttp, walletWithCredential } from '../support/holder-setup.js';
import { freePort } from '../support/spawned-service.js';
import { startTenantFixture, type TenantFixture } from '../support/tenant-fixture.js';
import { makeTestCa } from '../support/test-ca.js';
import { decodeHeader, decodePayload, sansOf, validateX5c, x5cVerifier } from '../support/x5c-validation.js';

/**
 * Without imported chains every key carries a leaf of the deployment's development CA: checked here
 * with independent code (@peculiar/x509, @sd-jwt/sd-jwt-vc) against the root the admin API serves,
 * on everything the service signs with x5c (HAIP: chain without the trust anchor, leaf not
 * self-signed, `iss` a SAN of the leaf), and through our wallet with an x509_san_dns verifier (at a
 * DNS name: one at an IP address names it as iPAddress and has no x509_san_dns identity).
 */
let f: TenantFixture;
let integrator: ReturnType<typeof createIntegratorClient>;
let root: string;

beforeAll(async () => {
  f = await startTenantFixture();
  integrator = f.integrator;
  const ca = await f.t.admin.getDevelopmentCa();
  if (ca.status !== 200) throw new Error(`development CA: ${ca.status}`);
  root = ca.body.certificate;
});
afterAll(() => f.stop());

const issuerUrl = () => f.t.service.context.config.issuerUrl;

const issueDirect = () => issueDirectCredential(integrator);

describe('development certificates', () => {
  it('an SD-JWT VC carries kid and an x5c chain to the development root; iss is the leaf URI SAN', async () => {
    const credential = await issueDirect();
    const header = decodeHeader(credential);
    expect(header.kid).toBe(await f.t.service.context.signer.activeKid('issuer'));
    const leaf = await validateX5c(header.x5c, root);
    // The test service is at 127.0.0.1: an IP address is an iPAddress SAN, never a dNSName (RFC 5280).
    expect(new URL(issuerUrl()).hostname).toBe('127.0.0.1');
    expect(sansOf(leaf)).toEqual({ uri: [issuerUrl()], dns: [], ip: ['127.0.0.1'] });
    expect(decodePayload(credential).iss).toBe(issuerUrl());

    // The library resolves the issuer key and the status list key from x5c alone.
    const verifier = new SDJwtVcInstance({ hasher: digest, verifier: x5cVerifier(root) });
    const verified = await verifier.verify(credential);
    expect(verified.payload.iss).toBe(issuerUrl());
    // Under another root the same credential does not verify.
    const stranger = Buffer.from((await makeTestCa('Stranger')).root.rawData).toString('base64');
    const strict = new SDJwtVcInstance({ hasher: digest, verifier: x5cVerifier(stranger) });
    await expect(strict.verify(credential)).rejects.toThrow();
  });

  it('the status list token carries its own key’s chain, and signed metadata the issuer’s', async () => {
    const credential = await issueDirect();
    const uri = (decodePayload(credential).status as { status_list: { uri: string } }).status_list.uri;
    const token = await (await fetch(uri)).text();
    const leaf = await validateX5c(decodeHeader(token).x5c, root);
    expect(decodeHeader(token)).toMatchObject({ typ: 'statuslist+jwt', kid: expect.any(String) });
    const [h, p, s] = token.split('.') as [string, string, string];
    expect(await x5cVerifier(root)(`${h}.${p}`, s)).toBe(true);
    expect(sansOf(leaf).uri).toEqual([issuerUrl()]);

    const metadata = await fetch(`${issuerUrl()}/.well-known/openid-credential-issuer`, {
      headers: { accept: 'application/jwt' },
    });
    const jwt = await metadata.text();
    await validateX5c(decodeHeader(jwt).x5c, root);
    const [mh, mp, ms] = jwt.split('.') as [string, string, string];
    expect(await x5cVerifier(root)(`${mh}.${mp}`, ms)).toBe(true);
    // HAIP: a scope for every credential configuration.
    const configurations = decodePayload(jwt).credential_configurations_supported as Record<
      string,
      { scope?: string }
    >;
    for (const [id, c] of Object.entries(configurations)) expect(c.scope).toBe(id);
  });

  it('a rotated issuer key gets its development leaf at once, without a restart', async () => {
    const before = (await validateX5c(decodeHeader(await issueDirect()).x5c, root)).serialNumber;
    const rotated = await f.t.admin.rotateSigningKey({ params: { purpose: 'issuer' } });
    expect(rotated.status === 201 && rotated.body.certificate_source).toBe('development');
    const header = decodeHeader(await issueDirect());
    expect(header.kid).toBe(rotated.status === 201 && rotated.body.kid);
    expect((await validateX5c(header.x5c, root)).serialNumber).not.toBe(before);
  });

  it('says once at start that development certificates are in use; a restart keeps leaves, certifies old keys', async () => {
    const { config, signer } = f.t.service.context;
    const before = await signer.certificateChain('verifier');
    // A key as it was before chains (a self-signed certificate only) is certified at the next start.
    const old = Buffer.from((await makeTestCa('Old')).root.rawData).toString('base64');
    await f.sql.query(
      "update signing_key set certificate = $1, certificate_chain = null, certificate_source = null where purpose = 'audit'",
      [old],
    );
    const warnings: string[] = [];
    const node = new LocalKeyStore(f.t.service.context.orm, new KeyEncryption('test-key-encryption-key'), {
      names: {
        issuerUrl: config.issuerUrl,
        verifierUrl: config.verifierUrl,
        organization: config.ISSUER_NAME,
      },
      logger: { warn: (_o: unknown, message?: string) => void warnings.push(String(message)) } as never,
    });
    await node.ensureKeys();
    await node.ensureKeys();
    node.stop();
    expect(warnings.filter((w) => w.startsWith('development certificates in use'))).toHaveLength(1);
    expect(await node.certificateChain('verifier')).toEqual(before);
    await validateX5c(await node.certificateChain('audit'), root);
  });
});

describe('x509_san_dns verifier identity', () => {
  it('our wallet verifies an x509_san_dns request against the development root and presents', async () => {
    // x509_san_dns names a DNS name: this service is at localhost, the one beside it at 127.0.0.1.
    const port = await freePort();
    const named = await startTenantFixture({ PORT: String(port), PUBLIC_URL: `http://localhost:${port}` });
    try {
      const ca = await named.t.admin.getDevelopmentCa();
      if (ca.status !== 200) throw new Error(`development CA: ${ca.status}`);
      const h = await walletWithCredential(named.integrator, named.smtp, 'san-dns@example.test');
      const created = await named.integrator.createAuthorizationRequest({
        body: { credential_configuration_id: 'LEARCredentialEmployee', client_id_prefix: 'x509_san_dns' },
      });
      if (created.status !== 201) throw new Error(`session: ${created.status}`);
      const link = new URL(created.body.authorization_request_uri);
      expect(link.searchParams.get('client_id')).toBe('x509_san_dns:localhost');
      const requestObject = await (await fetch(link.searchParams.get('request_uri') ?? '')).text();
      const leaf = await validateX5c(decodeHeader(requestObject).x5c, ca.body.certificate);
      expect(sansOf(leaf)).toMatchObject({ dns: ['localhost'], ip: [] });

      // Without a trust anchor the name means nothing: the wallet refuses before posting anything.
      await expect(h.wallet.present(created.body.authorization_request_uri, walletHttp)).rejects.toThrow(
        WalletError,
      );
      const trusted = { ...walletHttp, trustAnchors: [ca.body.certificate] };
      await h.wallet.present(created.body.authorization_request_uri, trusted);
      const polled = await named.integrator.getAuthorizationRequest({
        params: { id: created.body.session_id },
      });
      expect(polled.status === 200 && polled.body).toMatchObject({ status: 'verified', verified: true });
    } finally {
      await named.stop();
    }
  });

  it('is refused for a verifier at an IP address, whose leaf names it as iPAddress', async () => {
    const created = await integrator.createAuthorizationRequest({
      body: { credential_configuration_id: 'LEARCredentialEmployee', client_id_prefix: 'x509_san_dns' },
    });
    expect(created.status).toBe(400);
    expect(JSON.stringify(created.body)).toMatch(/x509_san_dns needs a DNS name.*127\.0\.0\.1.*x509_hash/);
    const leaf = await validateX5c(await f.t.service.context.signer.certificateChain('verifier'), root);
    expect(sansOf(leaf)).toMatchObject({ dns: [], ip: ['127.0.0.1'] });
  });

  it('x509_hash stays the default, with the hash of the development leaf', async () => {
    const created = await integrator.createAuthorizationRequest({
      body: { credential_configuration_id: 'LEARCredentialEmployee' },
    });
    if (created.status !== 201) throw new Error(`session: ${created.status}`);
    expect(new URL(created.body.authorization_request_uri).searchParams.get('client_id')).toMatch(
      /^x509_hash:/,
    );
  });
});
