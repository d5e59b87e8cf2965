import { MAX_LIST_BYTES, TrustListError } from '../read-list.js';

/**
 * Turns the fetched bytes into the text handed to the XML parser, refusing before any parser sees
 * it what a trusted list never needs and an attacker always does:
 *
 * - more than MAX_LIST_BYTES (`too_large`), measured before decoding;
 * - bytes that are not UTF-8, or an XML declaration naming another encoding (TS 119 612 lists are
 *   UTF-8; a decoder guessing otherwise would read different text than the signer signed);
 * - any `<!` markup other than a comment or CDATA section: `<!DOCTYPE` with its internal subset,
 *   `<!ENTITY` (billion laughs, external entities such as `file:///etc/passwd`), `<!ELEMENT`,
 *   `<!ATTLIST` (which could also declare ID attributes and so move what a `#Id` reference hits);
 * - any processing instruction other than the XML declaration at the very start.
 *
 * The check is on the raw text, so it does not depend on how the parser treats a DTD. It is
 * deliberately coarse: `<!DOCTYPE` inside a comment is refused too, which no real list contains.
 */

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
const XML_DECLARATION = /^<\?xml\s[^?]*\?>/;
const DECLARED_ENCODING = /\sencoding\s*=\s*["']([^"']+)["']/;

export function listText(xml: Buffer | string): string {
  const bytes = typeof xml === 'string' ? Buffer.byteLength(xml, 'utf8') : xml.byteLength;
  if (bytes > MAX_LIST_BYTES) {
    throw new TrustListError('too_large', `the list has ${bytes} bytes, more than ${MAX_LIST_BYTES}`);
  }
  let text: string;
  if (typeof xml === 'string') {
    text = xml.startsWith('\uFEFF') ? xml.slice(1) : xml;
  } else {
    try {
      // The decoder drops a UTF-8 byte order mark, which some member states' lists start with.
      text = UTF8.decode(xml);
    } catch {
      throw new TrustListError('malformed', 'the list is not UTF-8');
    }
  }
  refuseUnsafeMarkup(text);
  return text;
}

function refuseUnsafeMarkup(text: string): void {
  const declaration = XML_DECLARATION.exec(text)?.[0];
  const encoding = declaration ? DECLARED_ENCODING.exec(declaration)?.[1] : undefined;
  if (encoding && !/^utf-?8$/i.test(encoding)) {
    throw new TrustListError('malformed', `the list declares the encoding ${encoding}, not UTF-8`);
  }
  for (const match of text.matchAll(/<!/g)) {
    const at = match.index;
    if (text.startsWith('<!--', at) || text.startsWith('<![CDATA[', at)) continue;
    const what = /^<![A-Za-z]*/.exec(text.slice(at, at + 12))?.[0] ?? '<!';
    throw new TrustListError('malformed', `the list contains ${what} (a DTD or entity declaration)`);
  }
  for (const match of text.matchAll(/<\?/g)) {
    if (match.index === 0 && declaration) continue;
    throw new TrustListError('malformed', 'the list contains a processing instruction');
  }
}
