import type { Element } from '@xmldom/xmldom';

/**
 * Namespace-aware lookups in a parsed trusted list. Elements are found by namespace URI and local
 * name, never by prefix: lists in the wild bind the TS 119 612 namespace as the default namespace,
 * as `tsl:`, or as `ns2:`, and a prefix proves nothing about what an element is.
 *
 * Lookups walk DIRECT children along an explicit path from the element they start at, never
 * `getElementsByTagNameNS` over a subtree: a descendant search from the root would also find
 * elements inside the enveloped `ds:Signature` (which the signature does not cover) or inside an
 * extension where an attacker can park a look-alike, and the reader must see only what was signed.
 */

/** TS 119 612 (ex TS 102 231) trusted list namespace. */
export const TSL_NS = 'http://uri.etsi.org/02231/v2#';
/** TS 119 612 additional types (`MimeType` in a LOTL pointer). */
export const TSL_ADDITIONAL_NS = 'http://uri.etsi.org/02231/v2/additionaltypes#';
/** XML-DSig. */
export const DSIG_NS = 'http://www.w3.org/2000/09/xmldsig#';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';
const ELEMENT_NODE = 1;

/** The element children of `parent` named `{ns}local`, in document order. */
export function childElements(parent: Element, ns: string, local: string): Element[] {
  const found: Element[] = [];
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== ELEMENT_NODE) continue;
    const element = node as Element;
    if (element.namespaceURI === ns && element.localName === local) found.push(element);
  }
  return found;
}

/** The elements reached from `start` by following `locals` (all in `ns`) one child level at a time. */
export function elementsAt(start: Element, ns: string, ...locals: string[]): Element[] {
  let level = [start];
  for (const local of locals) level = level.flatMap((element) => childElements(element, ns, local));
  return level;
}

/** The first element at that path, if any. */
export function elementAt(start: Element, ns: string, ...locals: string[]): Element | undefined {
  return elementsAt(start, ns, ...locals)[0];
}

/** The element's text with surrounding whitespace trimmed; undefined when empty. */
export function textOf(element: Element | undefined): string | undefined {
  const text = element?.textContent?.trim();
  return text ? text : undefined;
}

/** Base64 content (a certificate) with the line breaks and indentation lists put in it removed. */
export function base64Of(element: Element): string | undefined {
  const text = element.textContent?.replace(/\s+/g, '');
  return text ? text : undefined;
}

/**
 * The text of the `Name` children of a multilingual name (`TSPName`, `SchemeOperatorName`): the one in
 * `xml:lang="en"` when there is one (lists carry the national language and usually English), else the
 * first.
 */
export function preferredName(names: Element | undefined): string | undefined {
  if (!names) return undefined;
  const candidates = childElements(names, TSL_NS, 'Name');
  const english = candidates.find((name) => name.getAttributeNS(XML_NS, 'lang')?.toLowerCase() === 'en');
  return textOf(english) ?? candidates.map(textOf).find((text) => text !== undefined);
}
