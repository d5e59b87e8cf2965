import { generateKeyPairSync, sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueSdJwtVc } from '../../server/formats/sd-jwt-vc/issue-sd-jwt-vc.js';
import type { Signer } from '../../server/keys/signer.js';
import { sdJwtCheckedBy } from '../support/sd-jwt-checker.js';

const issuerKeys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const signer = {
  activeKid: async () => 'issuer-1',
  certificateChain: async () => ['Y2VydA'],
  sign: async (_purpose: string, data: Uint8Array, kid?: string) => ({
    kid: kid ?? 'issuer-1',
    signature: sign('sha256', data, { key: issuerKeys.privateKey, dsaEncoding: 'ieee-p1363' }),
  }),
} as unknown as Signer;

const claims = {
  mandator: { organization: 'ACME', country: 'ES' },
  mandatee: { firstName: 'Ana', lastName: 'Ruiz', email: 'ana@acme.test' },
  power: [
    { function: 'Onboarding', action: ['Execute'] },
    { function: 'Payroll', action: ['Read'] },
  ],
};

const issue = (selectivelyDisclosable: string[]) =>
  issueSdJwtVc(signer, {
    issuer: 'https://issuer.test',
    vct: 'https://issuer.test/employee',
    claims,
    selectivelyDisclosable,
    issuedAt: new Date(1_700_000_000_000),
    expiresAt: new Date(1_900_000_000_000),
    status: { idx: 7, uri: 'https://issuer.test/status/1' },
    holderJwk: { kty: 'EC', crv: 'P-256', x: 'eA', y: 'eQ' },
  });

/** Checked by @sd-jwt/core, not by our code: the issuer signature, every digest, then the claims. */
async function verified(credential: string) {
  return (await sdJwtCheckedBy(issuerKeys.publicKey).verify(credential)).payload as Record<string, unknown>;
}

const issuerPayload = (credential: string) =>
  JSON.parse(Buffer.from(credential.split('.')[1] as string, 'base64url').toString('utf8'));

describe('issueSdJwtVc (own SD-JWT encoding, RFC 9901)', () => {
  it('hides named members and array elements behind digests that a third-party verifier resolves', async () => {
    const credential = await issue(['mandatee.firstName', 'mandatee.email', 'power[]']);
    expect(credential.endsWith('~')).toBe(true);
    expect(credential.split('~').slice(1, -1)).toHaveLength(4);
    const signed = issuerPayload(credential);
    expect(signed._sd_alg).toBe('sha-256');
    expect(signed.mandatee).toEqual({ lastName: 'Ruiz', _sd: expect.any(Array) });
    expect(signed.mandatee._sd).toEqual([...signed.mandatee._sd].sort());
    expect(signed.power).toEqual([{ '...': expect.any(String) }, { '...': expect.any(String) }]);
    expect(JSON.stringify(signed)).not.toContain('Ana');
    const payload = await verified(credential);
    expect(payload).toMatchObject({
      ...claims,
      iss: 'https://issuer.test',
      iat: 1_700_000_000,
      exp: 1_900_000_000,
    });
    expect(payload.cnf).toEqual({ jwk: { kty: 'EC', crv: 'P-256', x: 'eA', y: 'eQ' } });
    expect(payload.status).toEqual({ status_list: { idx: 7, uri: 'https://issuer.test/status/1' } });
  });

  it('nests disclosures: an element is disclosable and so is a member inside it', async () => {
    const credential = await issue(['power[]', 'power[].function']);
    // Two elements, each with its own disclosable function: four disclosures.
    expect(credential.split('~').slice(1, -1)).toHaveLength(4);
    expect((await verified(credential)).power).toEqual(claims.power);
  });

  it('uses a fresh salt for every disclosure', async () => {
    const [a, b] = await Promise.all([issue(['mandatee.firstName']), issue(['mandatee.firstName'])]);
    expect(a.split('~')[1]).not.toBe(b?.split('~')[1]);
  });

  it('signs the header the wallet resolves the key with', async () => {
    const credential = await issue([]);
    const header = JSON.parse(Buffer.from(credential.split('.')[0] as string, 'base64url').toString('utf8'));
    expect(header).toEqual({ typ: 'dc+sd-jwt', alg: 'ES256', kid: 'issuer-1', x5c: ['Y2VydA'] });
    expect(credential.split('~')).toHaveLength(2);
    expect(await verified(credential)).toMatchObject(claims);
  });
});
