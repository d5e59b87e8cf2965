import { defineEntity, type InferEntity, p } from '@mikro-orm/core';
import type { ServiceType } from './service-types.js';

/** An entity of a list, reduced to what vouches: its services of the source's types, in force. */
export interface ListedEntry {
  entity: string;
  /** The territory of the member state list it came from (a LOTL's pointers). */
  territory?: string;
  serviceType: ServiceType;
  /** Standard base64 DER. */
  certificates: string[];
}

/**
 * A published trust list a tenant trusts by (ETSI TS 119 612 trusted list or LOTL, ETSI TS 119 602
 * LoTE), with the copy in force: the entries of the last fetch that validated (`listed`), kept when
 * a later fetch fails, until `nextUpdate` plus the deployment's grace.
 */
export const TrustSourceRow = defineEntity({
  name: 'TrustSourceRow',
  tableName: 'trust_source',
  properties: {
    id: p.uuid().primary(),
    tenantId: p.string(),
    type: p.string().$type<'trusted_list' | 'lotl' | 'lote'>(),
    url: p.text(),
    /** The pinned certificates of the list's operator, standard base64 DER. */
    signerCertificates: p.json<string[]>(),
    serviceTypes: p.json<ServiceType[]>(),
    vctValues: p.json<string[]>().nullable(),
    doctypeValues: p.json<string[]>().nullable(),
    refreshSeconds: p.integer().nullable(),
    createdAt: p.datetime(),
    listed: p.json<ListedEntry[]>().nullable(),
    fetchedAt: p.datetime().nullable(),
    nextUpdate: p.datetime().nullable(),
    /** Why the last fetch failed; null once one succeeds. */
    error: p.text().nullable(),
    nextFetchAt: p.datetime(),
  },
});

export type TrustSourceRow = InferEntity<typeof TrustSourceRow>;
