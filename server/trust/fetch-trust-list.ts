import { guardedFetch } from '../outbound/guarded-fetch.js';
import type { OutboundPolicy } from '../outbound/outbound-policy.js';
import { MAX_LIST_BYTES, type ReadList } from './lists/read-list.js';
import { inForce, type ServiceType, serviceTypeOf } from './service-types.js';
import type { ListedEntry, TrustSourceRow } from './trust-source.entity.js';

/** A list reader: the bytes, the pinned signer certificates (base64 DER), the time; a TrustListError when refused. */
export type ListReader = (
  body: Buffer,
  pinned: readonly string[],
  options: { now: Date },
) => Promise<ReadList>;

export interface ListReaders {
  /** ETSI TS 119 612 (XML, XAdES): trusted lists and the LOTL. */
  xml: ListReader;
  /** ETSI TS 119 602 (JSON, JAdES). */
  lote: ListReader;
}

export interface FetchedList {
  listed: ListedEntry[];
  nextUpdate: Date | null;
  /** Pointed lists of a LOTL that could not be had; their last good entries are kept. */
  failedPointers: string[];
}

export interface FetchDeps {
  policy: OutboundPolicy;
  readers: ListReaders;
  timeoutMs: number;
}

/** One list through the guarded client: no redirects, no private addresses, at most MAX_LIST_BYTES. */
async function download(deps: FetchDeps, url: string): Promise<Buffer> {
  const res = await guardedFetch(deps.policy, url, { timeoutMs: deps.timeoutMs, maxBytes: MAX_LIST_BYTES });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.bytes();
}

/** The entries of a read list that vouch for the source: services of its types, in force. */
function entriesOf(list: ReadList, types: readonly ServiceType[], territory?: string): ListedEntry[] {
  return list.entities.flatMap((entity) =>
    entity.services.flatMap((service) => {
      const serviceType = serviceTypeOf(service.serviceType, types);
      if (!serviceType || !inForce(service.status) || service.certificates.length === 0) return [];
      return [
        {
          entity: entity.name,
          ...((territory ?? list.territory) ? { territory: territory ?? list.territory } : {}),
          serviceType,
          certificates: service.certificates,
        },
      ];
    }),
  );
}

const XML_LIST = /xml/i;

/**
 * Fetches and validates a source's list. A LOTL's pointers to XML trusted lists are followed, each
 * validated against the signer certificates the (validated) LOTL gives for it; a pointed list that
 * fails keeps its territory's entries of the last good copy and is reported, the others refresh.
 * The source's next update is the earliest NextUpdate among the lists read.
 */
export async function fetchTrustList(
  deps: FetchDeps,
  source: TrustSourceRow,
  now: Date,
): Promise<FetchedList> {
  const reader = source.type === 'lote' ? deps.readers.lote : deps.readers.xml;
  const list = await reader(await download(deps, source.url), source.signerCertificates, { now });
  const listed = entriesOf(list, source.serviceTypes);
  let nextUpdate = list.nextUpdate ?? null;
  const failedPointers: string[] = [];
  if (source.type === 'lotl') {
    const pointers = list.pointers.filter((p) => !p.mimeType || XML_LIST.test(p.mimeType));
    for (const pointer of pointers) {
      try {
        const pointed = await deps.readers.xml(
          await download(deps, pointer.url),
          pointer.signerCertificates,
          { now },
        );
        listed.push(...entriesOf(pointed, source.serviceTypes, pointer.territory));
        if (pointed.nextUpdate && (!nextUpdate || pointed.nextUpdate < nextUpdate))
          nextUpdate = pointed.nextUpdate;
      } catch (e) {
        failedPointers.push(`${pointer.territory ?? pointer.url}: ${(e as Error).message}`);
        const kept = (source.listed ?? []).filter((entry) => entry.territory === pointer.territory);
        listed.push(...kept);
      }
    }
  }
  return { listed, nextUpdate, failedPointers };
}
