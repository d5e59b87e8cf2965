import { createPublicKey, generateKeyPairSync, KeyObject, sign, X509Certificate } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildStatusListCwt } from '../../server/formats/mso-mdoc/build-status-list-cwt.js';
import { CborTag } from '../../server/formats/mso-mdoc/cbor-values.js';
import { sigStructure } from '../../server/formats/mso-mdoc/cose-sign1.js';
import { decodeCborSafely } from '../../server/formats/mso-mdoc/decode-cbor-safely.js';
import { encodeCbor } from '../../server/formats/mso-mdoc/encode-cbor.js';
import {
  readStatusListCwt,
  type StatusListCwtChecks,
} from '../../server/formats/mso-mdoc/read-status-list-cwt.js';
import {
  type StatusListCwtKey,
  signStatusListCwt,
} from '../../server/formats/mso-mdoc/sign-status-list-cwt.js';
import type { Signer } from '../../server/keys/signer.js';
import { PresentationError } from '../../server/oid4vp/verification/presentation-error.js';
import { readStatus, writeStatus } from '../../server/status-list/status-list-encoding.js';
import { mdocPki } from '../support/mdoc-issuer.js';

const URI = 'https://issuer.example/status-lists/7';
const keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const keyOf = (privateKey: KeyObject, extra: Partial<StatusListCwtKey> = {}): StatusListCwtKey => ({
  sign: async (data) => new Uint8Array(sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
  ...extra,
});

const statuses = new Uint8Array(256);
writeStatus(statuses, 2, 3, 1);
writeStatus(statuses, 2, 700, 2);
const claims = {
  subject: URI,
  issuedAt: new Date(1_750_000_000_000),
  expiresAt: new Date(1_750_086_400_000),
  ttl: 60,
  bits: 2 as const,
  lst: new Uint8Array(deflateSync(statuses, { level: 9 })),
};
const at = 1_750_000_100;
const checks = (o: Partial<StatusListCwtChecks> = {}): StatusListCwtChecks => ({
  uri: URI,
  key: keys.publicKey,
  now: at,
  ...o,
});

async function rejection(p: Promise<unknown>): Promise<PresentationError> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(PresentationError);
  return e as PresentationError;
}

/** The token with its claims replaced and signed again (by `key`): for claims the signer would not write. */
async function resigned(
  token: Uint8Array,
  edit: (claims: Map<number, unknown>, headers: Map<number, unknown>) => void,
) {
  const tagged = decodeCborSafely(token, 't', { tags: new Set([18]) }) as CborTag<unknown[]>;
  const [protectedBytes, unprotected, payload] = tagged.value as [
    Uint8Array,
    Map<number, unknown>,
    Uint8Array,
  ];
  const headers = decodeCborSafely(protectedBytes, 'h') as Map<number, unknown>;
  const body = decodeCborSafely(payload, 'p') as Map<number, unknown>;
  edit(body, headers);
  const newProtected = encodeCbor(headers);
  const newPayload = encodeCbor(body);
  const signature = await keyOf(keys.privateKey).sign(sigStructure(newProtected, newPayload));
  return encodeCbor(new CborTag(18, [newProtected, unprotected, newPayload, signature]));
}

describe('Status List Token in CWT form: signStatusListCwt, readStatusListCwt', () => {
  let token: Uint8Array;
  beforeAll(async () => {
    token = await signStatusListCwt(keyOf(keys.privateKey, { kid: 'status-1' }), claims);
  });

  it('round-trips: typ, claims, the list, the kid as a byte string', async () => {
    expect(token[0]).toBe(0xd2); // COSE_Sign1_Tagged
    const read = await readStatusListCwt(token, checks());
    expect(read).toMatchObject({ bits: 2, issuedAt: claims.issuedAt, expiresAt: claims.expiresAt, ttl: 60 });
    expect(Buffer.from(read.kid ?? []).toString()).toBe('status-1');
    expect([
      readStatus(read.statuses, 2, 3),
      readStatus(read.statuses, 2, 700),
      readStatus(read.statuses, 2, 4),
    ]).toEqual([1, 2, 0]);
  });

  it("writes the specification's example byte for byte, but for the (randomised) signature", async () => {
    // Token Status List, "Status List Token in CWT Format": kid "12", 1 bit, lst 78dadbb918000217015d.
    const example =
      'd2845820a2012610781a6170706c69636174696f6e2f7374617475736c6973742b637774a1044231325850a5027821' +
      '68747470733a2f2f6578616d706c652e636f6d2f7374617475736c697374732f31061a648c5bea041a8898dfea19fffe' +
      '19a8c019fffda2646269747301636c73744a78dadbb918000217015d5840';
    const ours = await signStatusListCwt(keyOf(keys.privateKey, { kid: '12' }), {
      subject: 'https://example.com/statuslists/1',
      issuedAt: new Date(1686920170 * 1000),
      expiresAt: new Date(2291720170 * 1000),
      ttl: 43200,
      bits: 1,
      lst: new Uint8Array(Buffer.from('78dadbb918000217015d', 'hex')),
    });
    expect(Buffer.from(ours).toString('hex').slice(0, -128)).toBe(example);
  });

  it("reads the specification's example token, signed by its authors' example key", async () => {
    const example = Buffer.from(
      'd2845820a2012610781a6170706c69636174696f6e2f7374617475736c6973742b637774a1044231325850a5027821' +
        '68747470733a2f2f6578616d706c652e636f6d2f7374617475736c697374732f31061a648c5bea041a8898dfea19fffe' +
        '19a8c019fffda2646269747301636c73744a78dadbb918000217015d584093fa4d01032b18c35e2fe1101b77fd6cc944' +
        '0022caa4694450c4e4e9feab4e99d1fa6d9772ce2bf3a12e0323ded7c982c5e101a5e67f0cbc1e2b6f57ce99c279',
      'hex',
    );
    // The P-256 key of the draft's examples (kid "12").
    const key = createPublicKey({
      key: {
        kty: 'EC',
        crv: 'P-256',
        x: 'I3HWm_0Ds1dPMI-IWmf4mBmH-YaeAVbPVu7vB27CxXo',
        y: '6N_d5Elj9bs1htgV3okJKIdbHEpkgTmAluYKJemzn1M',
      },
      format: 'jwk',
    });
    const read = await readStatusListCwt(example, {
      uri: 'https://example.com/statuslists/1',
      key,
      now: 1686920170,
    });
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((i) => readStatus(read.statuses, 1, i))).toEqual([
      1, 0, 0, 1, 1, 1, 0, 1,
    ]);
    expect([read.bits, read.ttl, Buffer.from(read.kid ?? []).toString()]).toEqual([1, 43200, '12']);
  });

  it('refuses a changed token, another key, another list, an expired list, another typ, no tag', async () => {
    const changed = new Uint8Array(token);
    changed[changed.length - 70] = (changed[changed.length - 70] as number) ^ 1;
    expect((await rejection(readStatusListCwt(changed, checks()))).code).toBe('invalid_signature');
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect((await rejection(readStatusListCwt(token, checks({ key: other.publicKey })))).code).toBe(
      'invalid_signature',
    );
    expect((await rejection(readStatusListCwt(token, checks({ uri: `${URI}0` })))).message).toMatch(
      /subject/,
    );
    expect((await rejection(readStatusListCwt(token, checks({ now: 1_750_100_000 })))).message).toMatch(
      /expired/,
    );
    const otherTyp = await resigned(token, (_, headers) => headers.set(16, 'application/cwt'));
    expect((await rejection(readStatusListCwt(otherTyp, checks()))).message).toMatch(/typ/);
    const untagged = encodeCbor((decodeCborSafely(token, 't', { tags: new Set([18]) }) as CborTag).value);
    expect((await rejection(readStatusListCwt(untagged, checks()))).message).toMatch(/tag 18/);
    const badBits = await resigned(token, (body) => body.set(65533, { bits: 3, lst: claims.lst }));
    expect((await rejection(readStatusListCwt(badBits, checks()))).message).toMatch(/bits 3/);
    const bomb = await resigned(token, (body) =>
      body.set(65533, { bits: 1, lst: new Uint8Array(deflateSync(new Uint8Array(4096))) }),
    );
    expect((await rejection(readStatusListCwt(bomb, checks({ maxStatusBytes: 1024 })))).message).toMatch(
      /decompress/,
    );
    const noSubject = await resigned(token, (body) => body.delete(2));
    expect((await rejection(readStatusListCwt(noSubject, checks()))).code).toBe('malformed');
    for (const garbage of [
      new Uint8Array(0),
      new Uint8Array([0xd2, 0x9f, 0xff]),
      new Uint8Array([0xd8, 0x3d, 0x80]),
    ])
      expect((await rejection(readStatusListCwt(garbage, checks()))).code).toBe('malformed');
  });

  it('is built from the Signer like the JWT form, with its chain; a verifier finds the key in x5chain', async () => {
    const pki = await mdocPki('Status');
    const privateKey = KeyObject.from(pki.documentSigner.keys.privateKey);
    const signer: Pick<Signer, 'sign' | 'certificateChain' | 'activeKid'> = {
      activeKid: async () => 'status-kid',
      certificateChain: async () => [pki.documentSigner.base64],
      sign: async (_purpose, data, kid) => ({
        kid: kid ?? 'status-kid',
        signature: new Uint8Array(sign('sha256', data, { key: privateKey, dsaEncoding: 'ieee-p1363' })),
      }),
    };
    const built = await buildStatusListCwt(signer, { uri: URI, bits: 2, statuses }, new Date(at * 1000));
    const read = await readStatusListCwt(built.token, {
      uri: URI,
      now: at,
      key: ({ x5chain }) => new X509Certificate(x5chain?.[0] ?? new Uint8Array()).publicKey,
    });
    expect(Buffer.from(read.statuses)).toEqual(Buffer.from(statuses));
    expect(read.ttl).toBe(60);
    expect(read.expiresAt?.getTime()).toBe(built.expiresAt.getTime());
    expect(
      createPublicKey(privateKey).equals(
        new X509Certificate(read.x5chain?.[0] ?? new Uint8Array()).publicKey,
      ),
    ).toBe(true);
  });
});
