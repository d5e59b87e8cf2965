/**
 * The ETSI TS 119 612 trusted list / EU LOTL reader: `readTrustedList(xml, pinned, { now })`. What it
 * returns and refuses with is the shape both trust list readers share (../read-list.ts).
 *
 * One concern a file, in the order a list passes through them:
 * - list-text.ts: size limit, UTF-8 decoding, refusal of DTDs, entities and processing instructions
 *   on the raw text;
 * - parse-list-xml.ts: the strict @xmldom/xmldom configuration;
 * - enveloped-signature.ts: the one signature under the root, and References that cover exactly the
 *   root (the defence against signature wrapping), with signature-algorithms.ts's allow-lists;
 * - pinned-signer.ts: which KeyInfo certificate is pinned, and whether the signature verifies with it
 *   (signature-verification.ts, xadesjs on Node's WebCrypto set up in xades-engine.ts);
 * - read-scheme-information.ts and read-providers.ts: what the signed root says, read with the
 *   namespace-aware, direct-children lookups of xml-lookup.ts;
 * - read-trusted-list.ts: the order of those steps, and the NextUpdate check.
 *
 * service-type-uris.ts names the service types (QEAA, PuB-EAA, EAA, CA/QC) and list types (LOTL,
 * member state list) a trust source configuration refers to, with where they were confirmed.
 */
export { MAX_LIST_BYTES, type ReadList, TrustListError, type TrustListErrorCode } from '../read-list.js';
export { type ReadTrustedListOptions, readTrustedList } from './read-trusted-list.js';
export * from './service-type-uris.js';
