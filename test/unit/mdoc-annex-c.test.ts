import { cborDecode, DeviceRequest } from '@owf/mdoc';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAnnexCRequest } from '../../server/formats/mso-mdoc/create-annex-c-request.js';
import { openAnnexCResponse } from '../../server/formats/mso-mdoc/open-annex-c-response.js';
import { annexCSessionTranscript } from '../../server/formats/mso-mdoc/session-transcript.js';
import { signIssuerSigned } from '../../server/formats/mso-mdoc/sign-issuer-signed.js';
import { verifyDeviceResponse } from '../../server/formats/mso-mdoc/verify-device-response.js';
import { PresentationError } from '../../server/oid4vp/verification/presentation-error.js';
import { sealAnnexCResponse, walletAnnexCTranscript } from '../support/annex-c-wallet.js';
import { presentMdoc } from '../support/mdoc-holder.js';
import { deviceKeyPair, type MdocPki, mdocPki } from '../support/mdoc-issuer.js';

const DOCTYPE = 'org.example.employee.1';
const NS = 'org.example.employee.1';
const ORIGIN = 'https://verifier.example';
const device = deviceKeyPair();
let pki: MdocPki;
let credential: string;

beforeAll(async () => {
  pki = await mdocPki('Annex C');
  const now = Date.now();
  ({ credential } = await signIssuerSigned(pki.signingKey, {
    doctype: DOCTYPE,
    namespaces: { [NS]: { given_name: 'Erika', family_name: 'Mustermann', age_over_18: true } },
    deviceKey: device.publicJwk,
    signedAt: new Date(now),
    validFrom: new Date(now),
    validUntil: new Date(now + 86_400_000),
  }));
});

const elements = [
  { namespace: NS, element: 'given_name', intentToRetain: true },
  { namespace: NS, element: 'age_over_18' },
];

/** What a wallet does with the request: present with the transcript it computes, seal to the verifier. */
async function walletAnswer(encryptionInfo: string, origin = ORIGIN) {
  const deviceResponse = await presentMdoc({
    issuerSigned: credential,
    devicePrivateKey: device.privateJwk,
    sessionTranscript: walletAnnexCTranscript(encryptionInfo, origin),
    disclose: { [NS]: ['given_name', 'age_over_18'] },
  });
  return sealAnnexCResponse({ encryptionInfo, origin, deviceResponse });
}

async function rejection(p: Promise<unknown>): Promise<PresentationError> {
  const e = await p.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(e).toBeInstanceOf(PresentationError);
  return e as PresentationError;
}

describe('ISO 18013-7 Annex C: createAnnexCRequest, openAnnexCResponse', () => {
  it('makes a DeviceRequest and EncryptionInfo that @owf/mdoc reads as Annex C describes them', () => {
    const request = createAnnexCRequest({ doctype: DOCTYPE, elements });
    expect(request.protocol).toBe('org-iso-mdoc');
    const deviceRequest = DeviceRequest.decode(
      new Uint8Array(Buffer.from(request.deviceRequest, 'base64url')),
    );
    expect(deviceRequest.version).toBe('1.0');
    const [docRequest] = deviceRequest.docRequests;
    expect(docRequest?.itemsRequest.docType).toBe(DOCTYPE);
    expect(docRequest?.itemsRequest.namespaces).toEqual(
      new Map([
        [
          NS,
          new Map([
            ['given_name', true],
            ['age_over_18', false],
          ]),
        ],
      ]),
    );
    const [type, parameters] = cborDecode(
      new Uint8Array(Buffer.from(request.encryptionInfo, 'base64url')),
    ) as [string, Map<string, unknown>];
    expect(type).toBe('dcapi');
    expect((parameters.get('nonce') as Uint8Array).length).toBe(16);
    const key = parameters.get('recipientPublicKey') as Map<number, unknown>;
    expect([key.get(1), key.get(-1), (key.get(-2) as Uint8Array).length, key.has(-4)]).toEqual([
      2,
      1,
      32,
      false,
    ]);
    const given = createAnnexCRequest({ doctype: DOCTYPE, elements, nonce: new Uint8Array(16).fill(7) });
    const [, givenParameters] = cborDecode(
      new Uint8Array(Buffer.from(given.encryptionInfo, 'base64url')),
    ) as [string, Map<string, unknown>];
    expect(givenParameters.get('nonce')).toEqual(new Uint8Array(16).fill(7));
    expect(() => createAnnexCRequest({ doctype: DOCTYPE, elements, nonce: new Uint8Array(8) })).toThrow(
      RangeError,
    );
    expect(request.recipientPrivateKey).toMatchObject({ kty: 'EC', crv: 'P-256', d: expect.any(String) });
    expect(annexCSessionTranscript({ encryptionInfo: request.encryptionInfo, origin: ORIGIN })).toEqual(
      walletAnnexCTranscript(request.encryptionInfo, ORIGIN),
    );
  });

  it('opens what a wallet sealed, and the DeviceResponse verifies under the dcapi transcript', async () => {
    const request = createAnnexCRequest({ doctype: DOCTYPE, elements });
    const response = await walletAnswer(request.encryptionInfo);
    const opened = await openAnnexCResponse({ ...request, response, origin: ORIGIN });
    const verified = verifyDeviceResponse(opened.deviceResponse, {
      sessionTranscript: opened.sessionTranscript,
      trustAnchors: [pki.iaca.base64],
      now: Math.floor(Date.now() / 1000),
      skewSeconds: 60,
      expectedDoctype: DOCTYPE,
      requested: elements,
    });
    expect(verified.claims).toEqual({ [NS]: { given_name: 'Erika', age_over_18: true } });
  });

  it('refuses a response made for another origin, another request, altered, or not Annex C at all', async () => {
    const request = createAnnexCRequest({ doctype: DOCTYPE, elements });
    const response = await walletAnswer(request.encryptionInfo);
    expect(
      (await rejection(openAnnexCResponse({ ...request, response, origin: 'https://evil.example' }))).message,
    ).toMatch(/does not decrypt/);
    const another = createAnnexCRequest({ doctype: DOCTYPE, elements });
    expect((await rejection(openAnnexCResponse({ ...another, response, origin: ORIGIN }))).code).toBe(
      'malformed',
    );
    const bytes = Buffer.from(response, 'base64url');
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    const altered = bytes.toString('base64url');
    expect(
      (await rejection(openAnnexCResponse({ ...request, response: altered, origin: ORIGIN }))).message,
    ).toMatch(/does not decrypt/);
    for (const garbage of [
      '',
      '!!',
      'oA',
      Buffer.from([0x82, 0x65, 0x64, 0x63, 0x61, 0x70, 0x69, 0xa0]).toString('base64url'),
    ])
      expect(
        (await rejection(openAnnexCResponse({ ...request, response: garbage, origin: ORIGIN }))).code,
      ).toBe('malformed');
  });

  it('signs the device authentication over the transcript: a response replayed to another origin fails', async () => {
    const request = createAnnexCRequest({ doctype: DOCTYPE, elements });
    // A wallet that signed for one origin but sealed for another: it opens, the signature does not verify.
    const deviceResponse = await presentMdoc({
      issuerSigned: credential,
      devicePrivateKey: device.privateJwk,
      sessionTranscript: walletAnnexCTranscript(request.encryptionInfo, 'https://evil.example'),
      disclose: { [NS]: ['given_name'] },
    });
    const response = await sealAnnexCResponse({
      encryptionInfo: request.encryptionInfo,
      origin: ORIGIN,
      deviceResponse,
    });
    const opened = await openAnnexCResponse({ ...request, response, origin: ORIGIN });
    expect(() =>
      verifyDeviceResponse(opened.deviceResponse, {
        sessionTranscript: opened.sessionTranscript,
        trustAnchors: [pki.iaca.base64],
        now: Math.floor(Date.now() / 1000),
        skewSeconds: 60,
        expectedDoctype: DOCTYPE,
      }),
    ).toThrow(/device signature does not verify/);
  });
});
