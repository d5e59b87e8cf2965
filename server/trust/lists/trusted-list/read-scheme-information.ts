import type { Element } from '@xmldom/xmldom';
import { type ListPointer, TrustListError } from '../read-list.js';
import {
  base64Of,
  childElements,
  elementAt,
  elementsAt,
  TSL_ADDITIONAL_NS,
  TSL_NS,
  textOf,
} from './xml-lookup.js';

/**
 * Reads the list's `SchemeInformation` (TS 119 612 clause 5.3), starting from the signed root element
 * and following direct children only. Pointers to other lists are read for a list of lists only
 * (a TSLType ending in `listofthelists`, i.e. the EU LOTL or a non-EU `CClistofthelists`): a member
 * state's list points back at the LOTL too, and that pointer is not a list the caller should follow.
 */

export interface SchemeInformation {
  sequence?: number;
  type?: string;
  territory?: string;
  issuedAt?: Date;
  /** Undefined for a closed list (`NextUpdate` present but empty, clause 5.3.15). */
  nextUpdate?: Date;
  pointers: ListPointer[];
}

export function readSchemeInformation(root: Element): SchemeInformation {
  const informations = childElements(root, TSL_NS, 'SchemeInformation');
  const [information] = informations;
  if (!information || informations.length > 1) {
    throw new TrustListError('malformed', 'the list has no single SchemeInformation');
  }
  const text = (...path: string[]) => textOf(elementAt(information, TSL_NS, ...path));
  const sequence = text('TSLSequenceNumber');
  if (sequence !== undefined && !/^\d{1,15}$/.test(sequence)) {
    throw new TrustListError('malformed', `TSLSequenceNumber ${sequence} is not a number`);
  }
  const nextUpdates = childElements(information, TSL_NS, 'NextUpdate');
  if (nextUpdates.length !== 1) throw new TrustListError('malformed', 'the list has no single NextUpdate');
  const type = text('TSLType');
  const issued = text('ListIssueDateTime');
  const next = textOf(elementAt(nextUpdates[0] as Element, TSL_NS, 'dateTime'));
  return {
    sequence: sequence === undefined ? undefined : Number(sequence),
    type,
    territory: text('SchemeTerritory'),
    issuedAt: issued === undefined ? undefined : dateTime(issued, 'ListIssueDateTime'),
    nextUpdate: next === undefined ? undefined : dateTime(next, 'NextUpdate'),
    pointers: type?.toLowerCase().endsWith('listofthelists') ? readPointers(information) : [],
  };
}

function readPointers(information: Element): ListPointer[] {
  return elementsAt(information, TSL_NS, 'PointersToOtherTSL', 'OtherTSLPointer').map((pointer) => {
    const url = textOf(elementAt(pointer, TSL_NS, 'TSLLocation'));
    if (!url) throw new TrustListError('malformed', 'a pointer to another list has no TSLLocation');
    const identities = ['ServiceDigitalIdentities', 'ServiceDigitalIdentity', 'DigitalId', 'X509Certificate'];
    const others = elementsAt(pointer, TSL_NS, 'AdditionalInformation', 'OtherInformation');
    const other = (ns: string, local: string) =>
      others.map((o) => textOf(elementAt(o, ns, local))).find((value) => value !== undefined);
    return {
      url,
      territory: other(TSL_NS, 'SchemeTerritory'),
      type: other(TSL_NS, 'TSLType'),
      mimeType: other(TSL_ADDITIONAL_NS, 'MimeType'),
      signerCertificates: elementsAt(pointer, TSL_NS, ...identities)
        .map(base64Of)
        .filter((b64): b64 is string => b64 !== undefined),
    };
  });
}

// xsd:dateTime. TS 119 612 requires UTC; a value without a zone is read as UTC rather than as the
// server's local time, so the reading does not depend on where it runs.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})?$/;

function dateTime(value: string, name: string): Date {
  const match = DATE_TIME.exec(value);
  const date = match ? new Date(match[2] ? value : `${value}Z`) : undefined;
  if (!date || Number.isNaN(date.getTime())) {
    throw new TrustListError('malformed', `${name} ${value} is not an xsd:dateTime`);
  }
  return date;
}
