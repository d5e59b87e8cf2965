import { describe, expect, it } from 'vitest';
import { MAX_LIST_BYTES, TrustListError } from '../../server/trust/lists/trusted-list/index.js';
import { parseListXml } from '../../server/trust/lists/trusted-list/parse-list-xml.js';
import { read, refusal, signedList } from '../support/trusted-list-fixture.js';

/**
 * What the reader refuses before any XML parser sees the text: DTDs and entities (billion laughs, an
 * external entity), processing instructions, text that is not UTF-8, and more than MAX_LIST_BYTES.
 */
describe('unsafe or oversized input', () => {
  const withDoctype = (doctype: string, entity: string) =>
    signedList
      .replace('<?xml version="1.0" encoding="UTF-8"?>', `<?xml version="1.0" encoding="UTF-8"?>${doctype}`)
      .replace('Example Provider', entity);

  it('refuses a billion laughs without expanding it', async () => {
    const lol = `<!DOCTYPE TrustServiceStatusList [<!ENTITY l0 "lol">${Array.from(
      { length: 9 },
      (_, i) => `<!ENTITY l${i + 1} "${`&l${i};`.repeat(10)}">`,
    ).join('')}]>`;
    const started = Date.now();
    expect(await refusal(withDoctype(lol, '&l9;'))).toBe('malformed');
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('refuses an external entity naming file:///etc/passwd, never reading it', async () => {
    const xxe = withDoctype(
      '<!DOCTYPE TrustServiceStatusList [<!ENTITY x SYSTEM "file:///etc/passwd">]>',
      '&x;',
    );
    const error = await read(xxe).catch((e: unknown) => e as TrustListError);
    expect(error).toMatchObject({ code: 'malformed' });
    expect((error as Error).message).not.toMatch(/root:/);
  });

  it('refuses a bare DOCTYPE and a processing instruction', async () => {
    expect(await refusal(withDoctype('<!DOCTYPE TrustServiceStatusList>', 'Example Provider'))).toBe(
      'malformed',
    );
    expect(await refusal(withDoctype('<?xml-stylesheet href="x.xsl"?>', 'Example Provider'))).toBe(
      'malformed',
    );
  });

  it('has a parser that neither expands nor accepts an entity even past the text screen', () => {
    expect(() => parseListXml('<!DOCTYPE a [<!ENTITY e "expanded">]><a>&e;</a>')).toThrow(TrustListError);
    expect(() => parseListXml('<a>&e;</a>')).toThrow(TrustListError);
  });

  it('refuses text that is not UTF-8, or declares another encoding', async () => {
    expect(await refusal(Buffer.concat([Buffer.from(signedList), Buffer.from([0xff, 0xfe])]))).toBe(
      'malformed',
    );
    expect(await refusal(signedList.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'))).toBe('malformed');
  });

  it(`refuses more than MAX_LIST_BYTES (${MAX_LIST_BYTES}) before reading it`, async () => {
    const padded = signedList + ' '.repeat(MAX_LIST_BYTES - Buffer.byteLength(signedList) + 1);
    expect(await refusal(padded)).toBe('too_large');
    expect(await refusal(Buffer.from(padded))).toBe('too_large');
  });

  it('refuses a document whose root is not a TrustServiceStatusList', async () => {
    expect(await refusal('<?xml version="1.0"?><List xmlns="urn:x"/>')).toBe('malformed');
  });
});
