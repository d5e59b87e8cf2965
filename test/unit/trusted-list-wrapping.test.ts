import { DOMParser, type Element, XMLSerializer } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { SERVICE_TYPE_QEAA } from '../../server/trust/lists/trusted-list/index.js';
import { parseListXml } from '../../server/trust/lists/trusted-list/parse-list-xml.js';
import { signatureVerifiesWith } from '../../server/trust/lists/trusted-list/signature-verification.js';
import {
  content,
  DSIG,
  GRANTED,
  operator,
  refused,
  signedList,
  stranger,
  TSL,
} from '../support/trusted-list-fixture.js';
import { signList, trustedListXml } from '../support/trusted-list-operator.js';

/**
 * XML signature wrapping: the genuine signed root is moved into an extension of a forged
 * TrustServiceStatusList carrying the attacker's providers, and the signature is put under the forged root.
 */
const forgedProviders = {
  providers: [
    {
      names: { en: 'Forged Provider' },
      services: [{ type: SERVICE_TYPE_QEAA, status: GRANTED, cert: stranger.certificate }],
    },
  ],
};
function wrapped(signed: string, forgedId: string, signatureStays = false): string {
  const parse = (xml: string) => new DOMParser().parseFromString(xml, 'text/xml');
  const forged = parse(trustedListXml({ ...forgedProviders, id: forgedId }));
  const original = parse(signed).documentElement as Element;
  const signature = original.getElementsByTagNameNS(DSIG, 'Signature')[0] as Element;
  if (!signatureStays) original.removeChild(signature);
  const extensions = forged.createElementNS(TSL, 'SchemeExtensions');
  extensions.appendChild(forged.importNode(original, true));
  forged.getElementsByTagNameNS(TSL, 'SchemeInformation')[0]?.appendChild(extensions);
  if (!signatureStays) forged.documentElement?.appendChild(forged.importNode(signature, true));
  return new XMLSerializer().serializeToString(forged);
}

describe('signature wrapping', () => {
  const signedById = signList(trustedListXml({ ...content, id: 'TSL-1' }), operator, { uri: '#TSL-1' });

  it('the moved list still verifies cryptographically: only the structural check stands in the way', async () => {
    const document = parseListXml(wrapped(await signedById, 'FORGED'));
    const signature = document.documentElement?.getElementsByTagNameNS(DSIG, 'Signature')[0] as Element;
    expect(
      await signatureVerifiesWith(document, signature, Buffer.from(operator.certificate, 'base64')),
    ).toBe(true);
  });

  it('refuses the moved list when the Reference names the moved root by Id', async () => {
    expect(await refused(wrapped(await signedById, 'FORGED'))).toMatchObject({
      code: 'signature_invalid',
      message: expect.stringMatching(/Reference to #TSL-1, which is neither the list/),
    });
  });

  it('refuses the moved list when the forged root takes the same Id', async () => {
    expect(await refused(wrapped(await signedById, 'TSL-1'))).toMatchObject({
      code: 'signature_invalid',
      message: expect.stringMatching(/Id TSL-1 of the list is carried by more than one element/),
    });
  });

  it('refuses the moved list when the Reference is the whole document', async () => {
    // The forged root is what "" selects, so the digest no longer matches.
    expect(await refused(wrapped(signedList, 'FORGED'))).toMatchObject({
      code: 'signature_invalid',
      message: 'the signature does not verify',
    });
  });

  it('refuses a forged root whose signature stayed on the moved list', async () => {
    for (const signed of [await signedById, signedList]) {
      expect(await refused(wrapped(signed, 'FORGED', true))).toMatchObject({
        code: 'signature_invalid',
        message: expect.stringMatching(/exactly one signature, as a direct child/),
      });
    }
  });
});
