import type { Document, Element, Node } from '@xmldom/xmldom';
import { TrustListError } from '../read-list.js';
import {
  ENVELOPED_SIGNATURE,
  isAllowedDigest,
  isAllowedSignatureMethod,
  isAllowedTransform,
  isCanonicalization,
} from './signature-algorithms.js';
import { childElements, DSIG_NS, elementAt, elementsAt, TSL_NS } from './xml-lookup.js';

/**
 * Finds the list's signature and checks, before any cryptography, that what it signs IS the document
 * root the reader will then read. This is the defence against XML signature wrapping: a valid signature
 * proves only that the bytes its references select were signed, so the reader must make sure those
 * references select exactly the element it reads, and nothing it reads can have moved.
 *
 * Accepted: one `ds:Signature`, a direct child of the root `TrustServiceStatusList` (nested ones are
 * allowed only inside it, i.e. XAdES counter-signatures); exactly one Reference to the root — URI `""`
 * (the whole document) or `#<the root's Id>` — carrying the enveloped-signature transform; any other
 * Reference pointing at an element inside the signature itself (the XAdES SignedProperties). Refused:
 * a Reference to anything else, an external URI, a disallowed transform or digest, and a root Id
 * that another element also carries (xmldsigjs resolves `#Id` by searching the document, so a
 * duplicate could let it digest a different element than the root).
 */
export function envelopedSignature(document: Document): { root: Element; signature: Element } {
  const root = document.documentElement;
  if (!root || root.namespaceURI !== TSL_NS || root.localName !== 'TrustServiceStatusList') {
    throw new TrustListError('malformed', 'the root element is not a TS 119 612 TrustServiceStatusList');
  }
  const signatures = outermostSignatures(root);
  const [signature] = signatures;
  if (!signature) throw new TrustListError('signature_invalid', 'the list is not signed');
  if (signatures.length > 1 || signature.parentNode !== root) {
    throw new TrustListError(
      'signature_invalid',
      'the list must carry exactly one signature, as a direct child of its TrustServiceStatusList',
    );
  }
  checkSignedInfo(signature, root);
  return { root, signature };
}

function refuse(why: string): never {
  throw new TrustListError('signature_invalid', why);
}

function checkSignedInfo(signature: Element, root: Element): void {
  const signedInfos = childElements(signature, DSIG_NS, 'SignedInfo');
  const [signedInfo] = signedInfos;
  if (!signedInfo || signedInfos.length > 1) refuse('the signature has no single SignedInfo');
  const algorithm = (name: string) => elementAt(signedInfo, DSIG_NS, name)?.getAttribute('Algorithm') ?? null;
  if (!isCanonicalization(algorithm('CanonicalizationMethod'))) refuse('unsupported canonicalization');
  const method = algorithm('SignatureMethod');
  if (!isAllowedSignatureMethod(method)) refuse(`unsupported signature method ${method}`);

  const rootId = root.getAttribute('Id') || undefined;
  let referencesToRoot = 0;
  for (const reference of childElements(signedInfo, DSIG_NS, 'Reference')) {
    const uri = reference.getAttribute('URI');
    if (uri === null) refuse('a Reference without a URI');
    const digest = elementAt(reference, DSIG_NS, 'DigestMethod')?.getAttribute('Algorithm') ?? null;
    if (!isAllowedDigest(digest)) refuse(`unsupported digest ${digest}`);
    const transforms = elementsAt(reference, DSIG_NS, 'Transforms', 'Transform').map((transform) =>
      transform.getAttribute('Algorithm'),
    );
    if (!transforms.every(isAllowedTransform))
      refuse('a Reference with a transform other than enveloped-signature or c14n');
    if (uri === '' || (rootId !== undefined && uri === `#${rootId}`)) {
      if (!transforms.includes(ENVELOPED_SIGNATURE)) refuse('the list is referenced without being enveloped');
      referencesToRoot++;
      continue;
    }
    const [target, ...more] = uri.startsWith('#') ? elementsWithId(root, uri.slice(1)) : [];
    if (!target || more.length > 0 || !contains(signature, target)) {
      refuse(`a Reference to ${uri}, which is neither the list nor part of its signature`);
    }
  }
  if (referencesToRoot !== 1) refuse('the signature does not cover the TrustServiceStatusList exactly once');
  if (rootId !== undefined && elementsWithId(root, rootId).length > 1) {
    refuse(`the Id ${rootId} of the list is carried by more than one element`);
  }
}

/** The `ds:Signature` elements under `root` that are not inside another signature. */
function outermostSignatures(root: Element): Element[] {
  const found: Element[] = [];
  walk(root, (element) => {
    if (element.namespaceURI !== DSIG_NS || element.localName !== 'Signature') return true;
    found.push(element);
    return false; // a counter-signature inside it belongs to it
  });
  return found;
}

/** Every element carrying `id` as its Id, ID or id attribute: the names xmldsigjs resolves `#id` by. */
function elementsWithId(root: Element, id: string): Element[] {
  const found: Element[] = [];
  walk(root, (element) => {
    if (['Id', 'ID', 'id'].some((name) => element.getAttribute(name) === id)) found.push(element);
    return true;
  });
  return found;
}

function contains(ancestor: Element, element: Element): boolean {
  for (let node: Node | null = element; node; node = node.parentNode) if (node === ancestor) return true;
  return false;
}

/** Depth-first over the elements from `start`; `visit` returns false to skip an element's subtree. */
function walk(start: Element, visit: (element: Element) => boolean): void {
  const stack: Element[] = [start];
  for (let element = stack.pop(); element; element = stack.pop()) {
    if (!visit(element)) continue;
    for (let node = element.lastChild; node; node = node.previousSibling) {
      if (node.nodeType === 1) stack.push(node as Element);
    }
  }
}
