import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { LOTE_SERVICE_TYPES } from '../../server/trust/lists/lote/index.js';
import { readLote } from '../../server/trust/lists/lote/read-lote.js';
import { MAX_LIST_BYTES, TrustListError } from '../../server/trust/lists/read-list.js';
import { makeLoteOperator } from '../support/lote-operator.js';
import { makeTestCa } from '../support/test-ca.js';

/** What a list made and signed here reads into, and every way a list is refused whole. */

const operator = await makeLoteOperator('Test Scheme Operator');
const stranger = await makeLoteOperator('Someone Else');
const ca = await makeTestCa('LoTE');
const der = (cert: { rawData: ArrayBuffer }) => Buffer.from(cert.rawData).toString('base64');
const pidIssuerCa = der(ca.intermediate);
const pidRoot = der(ca.root);
const walletCa = der(await makeTestCa('Wallet').then((c) => c.intermediate));
const sha256 = (base64: string) => createHash('sha256').update(Buffer.from(base64, 'base64')).digest('hex');

const entities = [
  {
    name: 'Test PID Provider',
    services: [
      { type: LOTE_SERVICE_TYPES.pidIssuance, certificates: [pidIssuerCa, pidRoot] },
      { type: LOTE_SERVICE_TYPES.pidRevocation, certificates: [pidIssuerCa] },
    ],
  },
  {
    name: 'Test Wallet Provider',
    services: [
      {
        type: LOTE_SERVICE_TYPES.walletSolutionIssuance,
        certificates: [walletCa],
        status: 'http://uri.etsi.org/19602/SvcStatus/granted',
      },
    ],
  },
];

const refusal = (promise: Promise<unknown>) =>
  promise.then(
    () => expect.fail('the list should have been refused'),
    (e: unknown) => {
      expect(e).toBeInstanceOf(TrustListError);
      return e as TrustListError;
    },
  );

/** The compact JWS with its payload replaced by `edit` of the decoded payload, signature kept. */
const withPayload = (jws: string, edit: (json: string) => string) => {
  const [header, payload, signature] = jws.split('.') as [string, string, string];
  const changed = edit(Buffer.from(payload, 'base64url').toString('utf8'));
  return [header, Buffer.from(changed).toString('base64url'), signature].join('.');
};

describe('readLote (ETSI TS 119 602 LoTE, JAdES compact JWS)', () => {
  it('reads a list signed by a pinned operator into its entities, services and certificates', async () => {
    const nextUpdate = new Date(Date.now() + 7 * 86_400_000);
    const jws = await operator.sign(entities, { sequence: 7, nextUpdate, territory: 'DE' });

    const list = await readLote(jws, [stranger.certificate, operator.certificate]);

    expect(list.signedBy).toBe(sha256(operator.certificate));
    expect(list.sequence).toBe(7);
    expect(list.territory).toBe('DE');
    expect(list.nextUpdate?.toISOString()).toBe(nextUpdate.toISOString());
    expect(list.issuedAt?.getTime()).toBeLessThanOrEqual(Date.now());
    expect(list.pointers).toEqual([]);
    expect(list.entities).toEqual([
      {
        name: 'Test PID Provider',
        services: [
          { serviceType: LOTE_SERVICE_TYPES.pidIssuance, certificates: [pidIssuerCa, pidRoot] },
          { serviceType: LOTE_SERVICE_TYPES.pidRevocation, certificates: [pidIssuerCa] },
        ],
      },
      {
        name: 'Test Wallet Provider',
        services: [
          {
            serviceType: LOTE_SERVICE_TYPES.walletSolutionIssuance,
            status: 'http://uri.etsi.org/19602/SvcStatus/granted',
            certificates: [walletCa],
          },
        ],
      },
    ]);
  });

  it('maps a list pointing to other lists into pointers, with their signers and qualifiers', async () => {
    const pointedSigner = stranger.certificate;
    const jws = await operator.sign([], {
      pointers: [
        { url: 'https://lists.example/de/pid.jwt', signerCertificates: [pointedSigner], territory: 'DE' },
        { url: 'https://lists.example/fr/pid.jwt', signerCertificates: [pointedSigner, pidRoot] },
      ],
    });

    const list = await readLote(jws, [operator.certificate]);

    expect(list.entities).toEqual([]);
    expect(list.pointers).toEqual([
      {
        url: 'https://lists.example/de/pid.jwt',
        territory: 'DE',
        signerCertificates: [pointedSigner],
        mimeType: 'application/jwt',
      },
      {
        url: 'https://lists.example/fr/pid.jwt',
        signerCertificates: [pointedSigner, pidRoot],
        mimeType: 'application/jwt',
      },
    ]);
  });

  it('refuses a list signed by a certificate that is not pinned (signer_not_pinned)', async () => {
    const jws = await stranger.sign(entities);
    const { code } = await refusal(readLote(jws, [operator.certificate]));
    expect(code).toBe('signer_not_pinned');
    expect((await refusal(readLote(jws, []))).code).toBe('signer_not_pinned');
  });

  it('refuses a list whose payload changed after signing, by one byte (signature_invalid)', async () => {
    const jws = await operator.sign(entities);
    const tampered = withPayload(jws, (json) => json.replace('Test Wallet Provider', 'Test Wallet Provideq'));
    expect(tampered).not.toBe(jws);
    expect((await refusal(readLote(tampered, [operator.certificate]))).code).toBe('signature_invalid');
  });

  it('refuses alg "none" and HS256 keyed with the pinned certificate (signature_invalid)', async () => {
    const jws = await operator.sign(entities);
    const [, payload] = jws.split('.') as [string, string];
    const header = (h: object) => Buffer.from(JSON.stringify(h)).toString('base64url');

    const none = `${header({ alg: 'none', x5c: [operator.certificate] })}.${payload}.`;
    expect((await refusal(readLote(none, [operator.certificate]))).code).toBe('signature_invalid');

    // The classic confusion: an HMAC whose "secret" is the public certificate every reader holds.
    const input = `${header({ alg: 'HS256', x5c: [operator.certificate] })}.${payload}`;
    const mac = createHmac('sha256', Buffer.from(operator.certificate, 'base64'))
      .update(input)
      .digest('base64url');
    const { code, message } = await refusal(readLote(`${input}.${mac}`, [operator.certificate]));
    expect(code).toBe('signature_invalid');
    expect(message).toMatch(/HS256/);
  });

  it('refuses an unsigned LoTE, plain JSON however well shaped (signature_invalid)', async () => {
    const plain = JSON.stringify(operator.document(entities));
    const { code, message } = await refusal(readLote(plain, [operator.certificate]));
    expect(code).toBe('signature_invalid');
    expect(message).toMatch(/not signed/);
  });

  it('refuses a signed list of the wrong shape (malformed, naming the path), never yielding entities', async () => {
    const good = operator.document(entities);
    const info = good.LoTE.ListAndSchemeInformation;
    const notACertificate = Buffer.from('not a certificate').toString('base64');
    const cases: [unknown, string][] = [
      [{ LoTE: { ...good.LoTE, TrustedEntitiesList: { 0: entities[0] } } }, ': LoTE.TrustedEntitiesList: '],
      [{ LoTE: { TrustedEntitiesList: good.LoTE.TrustedEntitiesList } }, ': LoTE.ListAndSchemeInformation: '],
      [good.LoTE, ': LoTE: '],
      ['a string', ': (the document): '],
      [{ LoTE: { ...good.LoTE, ListAndSchemeInformation: { ...info, NextUpdate: 'soon' } } }, 'NextUpdate: '],
      [
        JSON.parse(JSON.stringify(good).replace(pidRoot, notACertificate)),
        'LoTE.TrustedEntitiesList.0.TrustedEntityServices.0.ServiceInformation.ServiceDigitalIdentity' +
          '.X509Certificates.1.val is not an X.509 certificate',
      ],
    ];
    for (const [payload, path] of cases) {
      const error = await refusal(readLote(await operator.signPayload(payload), [operator.certificate]));
      expect(error.code).toBe('malformed');
      expect(error.message).toContain(path);
    }
  });

  it('refuses a list past its NextUpdate (expired), and reads it until then', async () => {
    const nextUpdate = new Date(Date.now() + 86_400_000);
    const jws = await operator.sign(entities, { nextUpdate });
    const before = await readLote(jws, [operator.certificate], {
      now: new Date(nextUpdate.getTime() - 1_000),
    });
    expect(before.entities).toHaveLength(2);
    const { code } = await refusal(
      readLote(jws, [operator.certificate], { now: new Date(nextUpdate.getTime() + 1_000) }),
    );
    expect(code).toBe('expired');
  });

  it('refuses a body over MAX_LIST_BYTES before parsing it (too_large)', async () => {
    const body = Buffer.alloc(MAX_LIST_BYTES + 1, 0x61);
    expect((await refusal(readLote(body, [operator.certificate]))).code).toBe('too_large');
    expect((await refusal(readLote('é'.repeat(MAX_LIST_BYTES / 2 + 1), []))).code).toBe('too_large');
  });
});
