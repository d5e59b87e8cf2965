import { hash } from 'node:crypto';
import { check } from '../../oid4vp/verification/presentation-error.js';
import type { CborValue } from './cbor-values.js';
import {
  arrayOf,
  bytesOf,
  claimValueOf,
  embeddedOf,
  field,
  mapOf,
  setOwn,
  textOf,
  uintOf,
} from './read-cbor.js';
import type { MobileSecurityObject } from './read-mobile-security-object.js';

/** A data element the verifier asked for. */
export interface RequestedElement {
  namespace: string;
  element: string;
}

const AGE_OVER = /^age_over_\d{2}$/;

/**
 * Whether `element` of `namespace` was asked for. ISO 18013-5 7.2.5 lets an mdoc answer a request
 * for age_over_NN with the nearest age_over_XX it holds, so any age_over_XX answers one that was.
 */
function wasRequested(requested: readonly RequestedElement[], namespace: string, element: string): boolean {
  return requested.some(
    (r) =>
      r.namespace === namespace &&
      (r.element === element || (AGE_OVER.test(r.element) && AGE_OVER.test(element))),
  );
}

/**
 * The disclosed data elements of an IssuerSigned (ISO 18013-5 9.3.1 step 5), as claims by namespace.
 * Each IssuerSignedItemBytes, exactly as received, must hash to the MSO's digest for its namespace
 * and digestID (`tampered_disclosure` otherwise, and for a digestID or element disclosed twice); its
 * salt must be 16 bytes at least. With `requested`, an element that was not asked for is refused
 * (`malformed`): the verifier takes only what it requested.
 */
export function readIssuerSignedItems(
  nameSpaces: CborValue,
  mso: MobileSecurityObject,
  requested: readonly RequestedElement[] | undefined,
): Record<string, Record<string, unknown>> {
  const claims: Record<string, Record<string, unknown>> = {};
  if (nameSpaces === undefined) return claims;
  for (const [key, items] of mapOf(nameSpaces, 'issuerSigned.nameSpaces')) {
    const namespace = textOf(key, 'a namespace of issuerSigned.nameSpaces');
    const digests = mso.valueDigests.get(namespace);
    check(digests, 'tampered_disclosure', `the MSO has no digests for namespace ${namespace}`);
    const elements: Record<string, unknown> = {};
    const seen = new Set<number>();
    for (const [i, value] of arrayOf(items, `issuerSigned.nameSpaces ${namespace}`).entries()) {
      const what = `IssuerSignedItem ${i} of ${namespace}`;
      const { item, encoded } = embeddedOf(value, what);
      const map = mapOf(item, what);
      const digestID = uintOf(field(map, 'digestID', what), `the digestID of ${what}`);
      const salt = bytesOf(field(map, 'random', what), `the random of ${what}`);
      const element = textOf(field(map, 'elementIdentifier', what), `the elementIdentifier of ${what}`);
      check(salt.length >= 16, 'malformed', `the salt of ${namespace}/${element} is shorter than 16 bytes`);
      check(
        !seen.has(digestID),
        'tampered_disclosure',
        `digestID ${digestID} of ${namespace} is disclosed twice`,
      );
      check(
        !Object.hasOwn(elements, element),
        'tampered_disclosure',
        `${namespace}/${element} is disclosed twice`,
      );
      seen.add(digestID);
      const expected = digests.get(digestID);
      const actual = hash(mso.digestAlgorithm, encoded.encoded, 'buffer');
      check(
        expected !== undefined && actual.equals(expected),
        'tampered_disclosure',
        `${namespace}/${element} does not match its digest in the MSO`,
      );
      check(
        !requested || wasRequested(requested, namespace, element),
        'malformed',
        `${namespace}/${element} was disclosed but not requested`,
      );
      setOwn(elements, element, claimValueOf(field(map, 'elementValue', what)));
    }
    setOwn(claims, namespace, elements);
  }
  return claims;
}
