import { webcrypto } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { DomainError } from '../../server/domain-errors.js';
import { checkConcernsParty } from '../../server/registration/party-binding.js';
import { readRegistrationCertificate } from '../../server/registration/read-registration-certificate.js';
import {
  checkEntitlements,
  describeParty,
  registeredParty,
} from '../../server/registration/registered-party.js';
import { makeTestCa } from '../support/test-ca.js';
import { verifierRegistration } from '../support/test-registrar.js';

const base64 = (cert: { rawData: ArrayBuffer }) => Buffer.from(cert.rawData).toString('base64');
const ca = await makeTestCa('Unit Registrar');

/** A registration certificate signed with `alg` by a fresh key of that kind, certified by the test CA. */
async function signedWith(
  alg: 'ES256' | 'ES384' | 'PS256',
  header: Record<string, unknown> = {},
  leafValidity = {},
) {
  const algorithm =
    alg === 'PS256'
      ? { name: 'RSA-PSS', modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: 'SHA-256' }
      : { name: 'ECDSA', namedCurve: alg === 'ES256' ? 'P-256' : 'P-384' };
  const keys = (await webcrypto.subtle.generateKey(algorithm, false, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const leaf = await ca.issueKey(keys.publicKey, { subject: 'CN=Unit WRPRC Provider', ...leafValidity });
  const x5c = [base64(leaf), base64(ca.intermediate)];
  const payload: Record<string, unknown> = verifierRegistration('VATES-B12345678');
  return new SignJWT(payload)
    .setProtectedHeader({ alg, typ: 'rc-wrp+jwt', x5c, ...header })
    .sign(keys.privateKey);
}

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => 'accepted',
    (e: DomainError) => (e instanceof DomainError ? e.errors?.[0]?.message : String(e)),
  );

describe('reading a registration certificate', () => {
  it('takes ES256, ES384 and PS256, and typ with its application/ prefix in any case', async () => {
    for (const alg of ['ES256', 'ES384', 'PS256'] as const) {
      const read = await readRegistrationCertificate(await signedWith(alg));
      expect(read.leaf.subject).toBe('CN=Unit WRPRC Provider');
    }
    expect(
      await refusal(
        readRegistrationCertificate(await signedWith('ES256', { typ: 'Application/RC-WRP+JWT' })),
      ),
    ).toBe('accepted');
  });

  it('ends when its exp or its signing certificate ends, whichever comes first', async () => {
    const soon = new Date(Date.now() + 86_400_000);
    const read = await readRegistrationCertificate(await signedWith('ES256', {}, { notAfter: soon }));
    expect(read.expiresAt.getTime()).toBe(Math.floor(soon.getTime() / 1000) * 1000);
  });

  it('refuses other algorithms, a broken chain and an expired signing certificate', async () => {
    const jwt = await signedWith('ES256');
    const [, p, s] = jwt.split('.');
    const headerWith = (changes: Record<string, unknown>) =>
      Buffer.from(
        JSON.stringify({
          ...JSON.parse(Buffer.from(jwt.split('.')[0] ?? '', 'base64url').toString()),
          ...changes,
        }),
      ).toString('base64url');
    expect(await refusal(readRegistrationCertificate(`${headerWith({ alg: 'RS256' })}.${p}.${s}`))).toMatch(
      /alg RS256/,
    );
    const stranger = await makeTestCa('Stranger');
    const x5c = JSON.parse(Buffer.from(jwt.split('.')[0] ?? '', 'base64url').toString()).x5c;
    const broken = `${headerWith({ x5c: [x5c[0], base64(stranger.intermediate)] })}.${p}.${s}`;
    expect(await refusal(readRegistrationCertificate(broken))).toMatch(/is not issued by x5c entry 1/);
    const past = {
      notBefore: new Date(Date.now() - 3 * 86_400_000),
      notAfter: new Date(Date.now() - 86_400_000),
    };
    expect(await refusal(readRegistrationCertificate(await signedWith('ES256', {}, past)))).toMatch(
      /has expired/,
    );
  });
});

describe('the registered party', () => {
  it('reads sub as TS 119 475 V1.1.1 writes it (an object) and as later versions do (a string)', () => {
    const v111 = registeredParty(verifierRegistration('VATES-B12345678'));
    expect(describeParty(v111)).toBe('ACME Corp, ACME Employee Check (VATES-B12345678)');
    const later = registeredParty({
      sub: 'LEIXG-743700EB2QF2J1WRO915',
      sub_ln: 'Webshop Ltd',
      name: 'Webshop',
    });
    expect(describeParty(later)).toBe('Webshop Ltd, Webshop (LEIXG-743700EB2QF2J1WRO915)');
    expect(() => registeredParty({ name: 'nobody' })).toThrow(/names no registered party/);
  });

  it('must be this party where that can be told; an intermediary may be the access certificate’s', () => {
    const tenant = { value: 'VATES-B12345678', source: 'the mandator', accessCertificate: false };
    const access = { value: 'LEIXG-INTERMEDIARY', source: 'the access certificate', accessCertificate: true };
    const party = registeredParty({
      sub: 'VATDE-1',
      act: { sub: { id: 'LEIXG-INTERMEDIARY', name: 'Host' } },
    });
    expect(() => checkConcernsParty(party, [])).not.toThrow();
    expect(() => checkConcernsParty(party, [tenant, access])).not.toThrow();
    expect(() => checkConcernsParty(party, [tenant])).toThrow(/VATDE-1, LEIXG-INTERMEDIARY \(intermediary\)/);
    expect(() => checkConcernsParty(registeredParty({ sub: 'vates-b12345678' }), [tenant])).not.toThrow();
  });

  it('needs the entitlement of the role it is imported for, when it names entitlements', () => {
    const provider = registeredParty({ sub: 'X', entitlements: ['0.4.0.19475.1.5'] });
    expect(() => checkEntitlements('issuer', provider)).not.toThrow();
    expect(() => checkEntitlements('verifier', provider)).toThrow(/Service_Provider/);
    expect(() => checkEntitlements('verifier', registeredParty({ sub: 'X' }))).not.toThrow();
  });
});
