import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  SERVICE_TYPE_CA_QC,
  SERVICE_TYPE_QEAA,
  TSL_TYPE_EU_LOTL,
} from '../../server/trust/lists/trusted-list/index.js';
import {
  content,
  GRANTED,
  issuerCert,
  operator,
  read,
  refusal,
  refused,
  signedList,
  stranger,
} from '../support/trusted-list-fixture.js';
import { listOperator, signList, trustedListXml } from '../support/trusted-list-operator.js';

/** Lists written and signed in the test by a test operator: what is read, and what is refused. */

describe('lists signed by a test operator', () => {
  it('reads an ES256-signed list: names in English, certificates as one-line base64', async () => {
    const list = await read(signedList);
    expect(list).toMatchObject({
      sequence: 7,
      territory: 'ZZ',
      pointers: [],
      nextUpdate: new Date('2025-07-01'),
    });
    expect(list.signedBy).toBe(
      createHash('sha256').update(Buffer.from(operator.certificate, 'base64')).digest('hex'),
    );
    expect(list.entities).toEqual([
      {
        name: 'Example Provider',
        services: [
          { serviceType: SERVICE_TYPE_QEAA, status: GRANTED, certificates: [issuerCert] },
          { serviceType: SERVICE_TYPE_CA_QC, status: GRANTED, certificates: [issuerCert] },
        ],
      },
    ]);
  });

  it.each(['ES384', 'RS256', 'RS384', 'RS512', 'PS256'] as const)('verifies a %s signature', async (alg) => {
    const signer = await listOperator(alg);
    const list = await read(await signList(trustedListXml(content), signer), [signer.certificate]);
    expect(list.entities[0]?.name).toBe('Example Provider');
  });

  it('reads a list whose Reference names the root by its Id', async () => {
    const byId = await signList(trustedListXml({ ...content, id: 'TSL-1' }), operator, { uri: '#TSL-1' });
    expect((await read(byId)).entities).toHaveLength(1);
  });

  it("gives a list of lists' pointers, and none for a member state's list that points back", async () => {
    const pointers = [{ url: 'https://tl.example/zz.xml', territory: 'ZZ', certs: [stranger.certificate] }];
    const lotl = await read(await signList(trustedListXml({ type: TSL_TYPE_EU_LOTL, pointers }), operator));
    expect(lotl.pointers).toEqual([
      {
        url: 'https://tl.example/zz.xml',
        territory: 'ZZ',
        mimeType: 'application/vnd.etsi.tsl+xml',
        signerCertificates: [stranger.certificate],
      },
    ]);
    expect((await read(await signList(trustedListXml({ pointers }), operator))).pointers).toEqual([]);
  });

  it('refuses a list signed by an operator that is not pinned', async () => {
    expect(await refusal(signedList, [stranger.certificate])).toBe('signer_not_pinned');
  });

  it('refuses a list with one byte of its signed content changed', async () => {
    const changed = signedList.replace('Example Provider', 'Example Provides');
    expect(changed).not.toBe(signedList);
    expect(await refusal(changed)).toBe('signature_invalid');
  });

  it('refuses a list with no signature', async () => {
    expect(await refusal(trustedListXml(content))).toBe('signature_invalid');
  });

  it('refuses a list past its NextUpdate, and reads it when the caller passes a grace', async () => {
    const late = new Date('2025-07-02T00:00:00Z');
    await expect(read(signedList, [operator.certificate], late)).rejects.toMatchObject({ code: 'expired' });
    const grace = new Date(late.getTime() - 2 * 24 * 3600_000);
    await expect(read(signedList, [operator.certificate], grace)).resolves.toBeDefined();
  });

  it('refuses a Reference to a signed element other than the root', async () => {
    const xml = trustedListXml(content).replace(
      '<TrustServiceProvider>',
      '<TrustServiceProvider Id="tsp-1">',
    );
    expect(await refusal(await signList(xml, operator, { extraReferences: ['#tsp-1'] }))).toBe(
      'signature_invalid',
    );
  });

  it('refuses a signature that covers only part of the list (an XPath transform)', async () => {
    const partly = await signList(trustedListXml(content), operator, {
      transforms: [
        'enveloped',
        { name: 'xpath', selector: 'not(ancestor-or-self::*[local-name()="TSPName"])' },
      ],
    });
    const error = await refused(partly.replace('Example Provider', 'Forged Provider'));
    expect(error).toMatchObject({ code: 'signature_invalid', message: expect.stringMatching(/transform/) });
  });
});
