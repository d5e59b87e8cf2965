import { DOMParser, type Document, MIME_TYPE } from '@xmldom/xmldom';
import { TrustListError } from '../read-list.js';

/**
 * Parses the list's text (already screened by list-text.ts) with @xmldom/xmldom, the parser xmldsigjs
 * and xadesjs themselves use, configured so that it cannot be talked into more than plain XML:
 *
 * - `text/xml`, so the only entities it knows are the five predefined ones (`&amp;` …). xmldom never
 *   reads external resources and does not expand entities declared in a DTD; an unknown entity
 *   reference is an error here, not empty text.
 * - Every warning and error is fatal: a list that needs the parser's error recovery is not read at all,
 *   because recovery is where two parsers start to disagree about what a document says.
 * - A document that came out with a doctype anyway is refused (the raw-text screen should make that
 *   impossible; this is the second lock on the same door).
 */
export function parseListXml(text: string): Document {
  const parser = new DOMParser({
    onError: (level, message) => {
      throw new Error(`${level}: ${message}`);
    },
  });
  let document: Document;
  try {
    document = parser.parseFromString(text, MIME_TYPE.XML_TEXT);
  } catch (e) {
    throw new TrustListError('malformed', `the list is not well-formed XML (${(e as Error).message})`);
  }
  if (document.doctype) throw new TrustListError('malformed', 'the list has a document type declaration');
  if (!document.documentElement) throw new TrustListError('malformed', 'the list has no root element');
  return document;
}
