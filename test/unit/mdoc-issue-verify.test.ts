import { Verifier as Auth0Verifier } from '@auth0/mdl';
import { SessionTranscript } from '@owf/mdoc';
import { beforeAll, describe, expect, it } from 'vitest';
import { CborTag, type EmbeddedCbor, fullDate } from '../../server/formats/mso-mdoc/cbor-values.js';
import { decodeCborSafely } from '../../server/formats/mso-mdoc/decode-cbor-safely.js';
import { embedCbor, encodeCbor } from '../../server/formats/mso-mdoc/encode-cbor.js';
import { oid4vpSessionTranscript } from '../../server/formats/mso-mdoc/session-transcript.js';
import {
  type IssuerSignedInput,
  signIssuerSigned,
} from '../../server/formats/mso-mdoc/sign-issuer-signed.js';
import {
  type DeviceResponseChecks,
  verifyDeviceResponse,
} from '../../server/formats/mso-mdoc/verify-device-response.js';
import { PresentationError } from '../../server/oid4vp/verification/presentation-error.js';
import { trustOf } from '../../server/trust/trust.js';
import { mdocCrypto, presentMdoc } from '../support/mdoc-holder.js';
import { deviceKeyPair, type MdocPki, mdocPki } from '../support/mdoc-issuer.js';

const DOCTYPE = 'org.example.employee.1';
const NS = 'org.example.employee.1';
const DAY = 86_400_000;
const request = {
  clientId: 'x509_san_dns:verifier.example',
  nonce: 'n-0S6_WzA2Mj',
  responseUri: 'https://verifier.example/oid4vp/response',
};

let pki: MdocPki;
let other: MdocPki;
const device = deviceKeyPair();

beforeAll(async () => {
  [pki, other] = await Promise.all([mdocPki('Acme'), mdocPki('Other')]);
});

const input = (o: Partial<IssuerSignedInput> = {}): IssuerSignedInput => {
  const now = Date.now();
  return {
    doctype: DOCTYPE,
    namespaces: {
      [NS]: {
        given_name: 'Erika',
        family_name: 'Mustermann',
        birth_date: fullDate('1990-05-17'),
        employee_number: 4711,
        active: true,
        roles: ['admin', 'auditor'],
        address: { locality: 'Berlin', postal_code: '10115' },
        photo: new Uint8Array([1, 2, 3]),
      },
    },
    deviceKey: device.publicJwk,
    signedAt: new Date(now),
    validFrom: new Date(now),
    validUntil: new Date(now + 365 * DAY),
    status: { idx: 42, uri: 'https://issuer.example/status-lists/1' },
    ...o,
  };
};

const checks = (o: Partial<DeviceResponseChecks> = {}): DeviceResponseChecks => ({
  sessionTranscript: oid4vpSessionTranscript(request),
  trustAnchors: [pki.iaca.base64],
  now: Math.floor(Date.now() / 1000),
  skewSeconds: 60,
  expectedDoctype: DOCTYPE,
  requested: [
    { namespace: NS, element: 'given_name' },
    { namespace: NS, element: 'birth_date' },
  ],
  ...o,
});

/** The library's own transcript: the wallet computes it from the request, independently of ours. */
const walletTranscript = () => SessionTranscript.forOid4Vp(request, mdocCrypto);

async function presentation(
  o: Partial<IssuerSignedInput> = {},
  disclose = ['given_name', 'birth_date'],
  alg?: -7 | -9,
) {
  const { credential } = await signIssuerSigned(pki.signingKey, input(o));
  return presentMdoc({
    issuerSigned: credential,
    devicePrivateKey: device.privateJwk,
    sessionTranscript: await walletTranscript(),
    disclose: { [NS]: disclose },
    ...(alg ? { alg } : {}),
  });
}

function rejection(f: () => unknown): PresentationError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(PresentationError);
    return e as PresentationError;
  }
  throw new Error('it was accepted');
}

/** The DeviceResponse decoded (embedded items keep their bytes), changed by `edit`, encoded again. */
function edited(bytes: Uint8Array, edit: (response: Map<unknown, unknown>) => void): Uint8Array {
  const response = decodeCborSafely(bytes, 'test') as Map<unknown, unknown>;
  edit(response);
  return encodeCbor(response);
}
const documentOf = (response: Map<unknown, unknown>) =>
  (response.get('documents') as Map<unknown, unknown>[])[0] as Map<unknown, unknown>;

describe('mdoc issuance and presentation: signIssuerSigned, an @owf/mdoc holder, verifyDeviceResponse', () => {
  it('verifies what it issued and a third-party wallet presented, with the requested claims only', async () => {
    const verified = verifyDeviceResponse(Buffer.from(await presentation()).toString('base64url'), checks());
    expect(verified.doctype).toBe(DOCTYPE);
    expect(verified.claims).toEqual({ [NS]: { given_name: 'Erika', birth_date: '1990-05-17' } });
    expect(verified.deviceKey).toEqual({
      kty: 'EC',
      crv: 'P-256',
      x: device.publicJwk.x,
      y: device.publicJwk.y,
    });
    expect(verified.status).toEqual({ idx: 42, uri: 'https://issuer.example/status-lists/1' });
    expect(verified.issuerChain.anchor.base64).toBe(pki.iaca.base64);
    expect(verified.issuerChain.leaf.subject).toMatch(/Acme Document Signer/);
    expect(verified.validUntil.getTime()).toBeGreaterThan(Date.now());
  });

  it('trusts a document signer whose IACA a trust source lists, only for the doctypes it may vouch for', async () => {
    const listed = (doctype: string[]) =>
      trustOf(
        [],
        [
          {
            certificate: pki.iaca.base64,
            source: 's-1',
            entity: 'Acme',
            serviceType: 'pid_provider',
            doctype,
          },
        ],
      );
    const response = Buffer.from(await presentation()).toString('base64url');
    const verified = verifyDeviceResponse(response, checks({ trustAnchors: [], trust: listed([DOCTYPE]) }));
    expect(verified.issuerTrust).toEqual({
      method: 'trusted_list',
      source: 's-1',
      entity: 'Acme',
      serviceType: 'pid_provider',
    });
    const refused = rejection(() =>
      verifyDeviceResponse(response, checks({ trust: listed(['org.iso.18013.5.1.mDL']) })),
    );
    expect(refused.code).toBe('certificate_untrusted');
    expect(refused.message).toContain(`doctype ${DOCTYPE}`);
  });

  it('hands every kind of value on JSON-safe', async () => {
    const all = [
      'given_name',
      'family_name',
      'birth_date',
      'employee_number',
      'active',
      'roles',
      'address',
      'photo',
    ];
    const verified = verifyDeviceResponse(await presentation({}, all), checks({ requested: undefined }));
    expect(verified.claims[NS]).toEqual({
      given_name: 'Erika',
      family_name: 'Mustermann',
      birth_date: '1990-05-17',
      employee_number: 4711,
      active: true,
      roles: ['admin', 'auditor'],
      address: { locality: 'Berlin', postal_code: '10115' },
      photo: 'AQID',
    });
  });

  it('is verified by @auth0/mdl, an independent verifier, against the IACA root', async () => {
    const transcript = oid4vpSessionTranscript(request);
    const response = await presentation({}, ['given_name', 'family_name', 'birth_date', 'active']);
    // @auth0/mdl takes the transcript as SessionTranscriptBytes (tag 24).
    const mdoc = await new Auth0Verifier([pki.iaca.pem]).verify(response, {
      encodedSessionTranscript: embedCbor(transcript).encoded,
    });
    const items = mdoc.documents[0]?.issuerSigned.nameSpaces[NS] ?? [];
    expect(Object.fromEntries(items.map((i) => [i.elementIdentifier, i.elementValue]))).toMatchObject({
      given_name: 'Erika',
      family_name: 'Mustermann',
      active: true,
    });
  });

  it('accepts ESP256 (-9) for the issuer and the device signature, unless the checks exclude it', async () => {
    const response = await presentation({ alg: -9 }, ['given_name'], -9);
    const document = documentOf(decodeCborSafely(response, 'test') as Map<unknown, unknown>);
    const issuerAuth = (document.get('issuerSigned') as Map<unknown, unknown>).get(
      'issuerAuth',
    ) as Uint8Array[];
    expect(Buffer.from(issuerAuth[0] as Uint8Array).toString('hex')).toBe('a10128');
    expect(verifyDeviceResponse(response, checks()).claims[NS]).toEqual({ given_name: 'Erika' });
    expect(rejection(() => verifyDeviceResponse(response, checks({ allowedAlgs: [-7] }))).code).toBe(
      'unsupported_algorithm',
    );
  });

  it('refuses an altered value: its digest no longer matches the MSO', async () => {
    const response = Buffer.from(await presentation());
    const at = response.indexOf('Erika');
    response.write('Erikb', at);
    const e = rejection(() => verifyDeviceResponse(response, checks()));
    expect([e.code, e.message]).toEqual([
      'tampered_disclosure',
      expect.stringMatching(/given_name does not match/),
    ]);
  });

  it('refuses a presentation for another transcript (client, nonce or response URI)', async () => {
    const response = await presentation();
    for (const changed of [
      { ...request, nonce: 'another-nonce' },
      { ...request, clientId: 'x509_san_dns:evil.example' },
      { ...request, responseUri: 'https://evil.example/response' },
    ]) {
      const e = rejection(() =>
        verifyDeviceResponse(response, checks({ sessionTranscript: oid4vpSessionTranscript(changed) })),
      );
      expect(e.code).toBe('invalid_signature');
    }
  });

  it('refuses another doctype, an expired or future mdoc, an unknown IACA, an unrequested element', async () => {
    const otherType = await presentation({ doctype: 'org.iso.18013.5.1.mDL' });
    expect(rejection(() => verifyDeviceResponse(otherType, checks())).code).toBe('wrong_type');

    const now = Date.now();
    const expired = await presentation({
      signedAt: new Date(now - 20 * DAY),
      validFrom: new Date(now - 20 * DAY),
      validUntil: new Date(now - DAY),
    });
    expect(rejection(() => verifyDeviceResponse(expired, checks())).code).toBe('expired');
    const future = await presentation({
      validFrom: new Date(now + DAY),
      validUntil: new Date(now + 2 * DAY),
    });
    expect(rejection(() => verifyDeviceResponse(future, checks())).code).toBe('not_yet_valid');

    const valid = await presentation();
    expect(
      rejection(() => verifyDeviceResponse(valid, checks({ trustAnchors: [other.iaca.base64] }))).code,
    ).toBe('certificate_untrusted');
    expect(rejection(() => verifyDeviceResponse(valid, checks({ trustAnchors: [] }))).code).toBe(
      'certificate_untrusted',
    );

    const extra = await presentation({}, ['given_name', 'birth_date', 'family_name']);
    const e = rejection(() => verifyDeviceResponse(extra, checks()));
    expect([e.code, e.message]).toEqual([
      'malformed',
      expect.stringContaining('family_name was disclosed but not requested'),
    ]);
  });

  it('refuses a document signer certificate that has expired, and an MSO signed outside its validity', async () => {
    const lapsed = await mdocPki('Lapsed', {
      notBefore: new Date(Date.now() - 10 * DAY),
      notAfter: new Date(Date.now() - DAY),
    });
    const { credential } = await signIssuerSigned(lapsed.signingKey, input());
    const response = await presentMdoc({
      issuerSigned: credential,
      devicePrivateKey: device.privateJwk,
      sessionTranscript: await walletTranscript(),
      disclose: { [NS]: ['given_name'] },
    });
    expect(
      rejection(() => verifyDeviceResponse(response, checks({ trustAnchors: [lapsed.iaca.base64] }))).code,
    ).toBe('certificate_expired');
    // At a time the certificate was valid, the MSO (signed now) was not yet signed within it.
    const then = Math.floor((Date.now() - 5 * DAY) / 1000);
    const e = rejection(() =>
      verifyDeviceResponse(response, checks({ trustAnchors: [lapsed.iaca.base64], now: then })),
    );
    expect(e.code).toBe('certificate_invalid');
    // The chain validated at that time is remembered, but not past its certificates' validity.
    expect(
      rejection(() => verifyDeviceResponse(response, checks({ trustAnchors: [lapsed.iaca.base64] }))).code,
    ).toBe('certificate_expired');
  });

  it('refuses a DeviceMac, device-signed elements, no device signature, two documents, an error status', async () => {
    const response = await presentation();
    const withDeviceAuth = (deviceAuth: unknown) =>
      edited(response, (r) => {
        const signed = documentOf(r).get('deviceSigned') as Map<unknown, unknown>;
        signed.set('deviceAuth', deviceAuth);
      });
    const mac = withDeviceAuth(
      new Map([['deviceMac', [new Uint8Array([0xa1, 1, 5]), new Map(), null, new Uint8Array(32)]]]),
    );
    const e = rejection(() => verifyDeviceResponse(mac, checks()));
    expect([e.code, e.message]).toEqual([
      'missing_key_binding',
      expect.stringContaining('ephemeral reader key'),
    ]);

    const deviceElements = edited(response, (r) => {
      const signed = documentOf(r).get('deviceSigned') as Map<unknown, unknown>;
      signed.set('nameSpaces', embedCbor(encodeCbor({ [NS]: { given_name: 'Mallory' } })));
    });
    expect(rejection(() => verifyDeviceResponse(deviceElements, checks())).message).toMatch(/device-signed/);

    const unsigned = edited(response, (r) => documentOf(r).delete('deviceSigned'));
    expect(rejection(() => verifyDeviceResponse(unsigned, checks())).code).toBe('missing_key_binding');

    const two = edited(response, (r) => r.set('documents', [documentOf(r), documentOf(r)]));
    expect(rejection(() => verifyDeviceResponse(two, checks())).message).toMatch(/2 documents/);

    const none = edited(response, (r) => r.delete('documents'));
    expect(rejection(() => verifyDeviceResponse(none, checks())).code).toBe('missing_credential');

    const failed = edited(response, (r) => r.set('status', 10));
    expect(rejection(() => verifyDeviceResponse(failed, checks())).message).toMatch(/status 10/);
  });

  it('refuses COSE headers of the wrong type and a forged issuer signature', async () => {
    const response = await presentation();
    const withIssuerAuth = (change: (issuerAuth: unknown[]) => void) =>
      edited(response, (r) => {
        const issuerSigned = documentOf(r).get('issuerSigned') as Map<unknown, unknown>;
        const issuerAuth = [...(issuerSigned.get('issuerAuth') as unknown[])];
        change(issuerAuth);
        issuerSigned.set('issuerAuth', issuerAuth);
      });
    const textAlg = withIssuerAuth((a) => {
      a[0] = encodeCbor(new Map([[1, 'ES256']]));
    });
    expect(rejection(() => verifyDeviceResponse(textAlg, checks())).message).toMatch(/alg .* not an integer/);
    const textKid = withIssuerAuth((a) => {
      (a[1] as Map<number, unknown>).set(4, 'document-signer-1');
    });
    expect(rejection(() => verifyDeviceResponse(textKid, checks())).message).toMatch(
      /kid .* not a byte string/,
    );
    const textChain = withIssuerAuth((a) => {
      (a[1] as Map<number, unknown>).set(33, 'MIIB...');
    });
    expect(rejection(() => verifyDeviceResponse(textChain, checks())).message).toMatch(/x5chain .* neither/);
    const noChain = withIssuerAuth((a) => {
      (a[1] as Map<number, unknown>).delete(33);
    });
    expect(rejection(() => verifyDeviceResponse(noChain, checks())).code).toBe('x5c_required');
    const crit = withIssuerAuth((a) => {
      a[0] = encodeCbor(
        new Map<number, unknown>([
          [1, -7],
          [2, [99]],
        ]),
      );
    });
    expect(rejection(() => verifyDeviceResponse(crit, checks())).message).toMatch(/crit/);
    const hs256 = withIssuerAuth((a) => {
      a[0] = encodeCbor(new Map([[1, 5]]));
    });
    expect(rejection(() => verifyDeviceResponse(hs256, checks())).code).toBe('unsupported_algorithm');
    const forged = withIssuerAuth((a) => {
      const signature = new Uint8Array(a[3] as Uint8Array);
      signature[10] = (signature[10] as number) ^ 1;
      a[3] = signature;
    });
    expect(rejection(() => verifyDeviceResponse(forged, checks())).code).toBe('invalid_signature');
    // A tagged COSE_Sign1 (18) is not what ISO 18013-5 sends, and an unknown tag is refused outright.
    const taggedBytes = edited(response, (r) => {
      const issuerSigned = documentOf(r).get('issuerSigned') as Map<unknown, unknown>;
      issuerSigned.set('issuerAuth', new CborTag(18, issuerSigned.get('issuerAuth')));
    });
    expect(rejection(() => verifyDeviceResponse(taggedBytes, checks())).message).toMatch(/tag 18/);
  });

  it('keeps the bytes of embedded items when it reads them, so digests cover what was issued', async () => {
    const { issuerSigned } = await signIssuerSigned(pki.signingKey, input());
    const decoded = decodeCborSafely(issuerSigned, 'IssuerSigned') as Map<string, unknown>;
    const items = (decoded.get('nameSpaces') as Map<string, EmbeddedCbor[]>).get(NS) ?? [];
    expect(items).toHaveLength(8);
    expect(encodeCbor(decoded)).toEqual(issuerSigned);
    const ids = items.map((i) =>
      (decodeCborSafely(i.content, 'item') as Map<string, unknown>).get('digestID'),
    );
    expect(new Set(ids).size).toBe(8);
  });
});
