/**
 * TS 119 612 URIs a trust source configuration names: the `ServiceTypeIdentifier` of the services an
 * attestation issuer is trusted through, and the `TSLType` of the lists themselves.
 *
 * Where these were confirmed (the ETSI text itself could not be read from here):
 * - The EAA service types come from the `ServiceTypeIdentifier` enum of the European Commission's DSS
 *   library, in the copy indexed from the fork gustavoam-asdf/dss (commit
 *   4c2129862948bfd53ca1455832260aa17e183cf8,
 *   dss-validation/src/main/java/eu/europa/esig/dss/validation/process/qualification/trust/ServiceTypeIdentifier.java):
 *   `EAA/Q` under clause 5.5.1.1 (qualified trust service types), `EAA` and `EAA/Pub-EAA` under clause
 *   5.5.1.2 (non-qualified), each with the TS 119 612 description quoted, in a block headed "New eIDAS 2.0
 *   … trust service types (ETSI TS 119 612 v.2.4.1)". So DSS dates them to v2.4.1, not v2.3.1 as the brief
 *   assumed; v2.4.1 is also the version Commission Implementing Decision (EU) 2025/2164 makes the EU
 *   trusted list format from 29 April 2026. The esig/dss snapshot fetched here (commit d9473b8e…, April
 *   2026) still has the V2.1.1 enum without them.
 * - The same three URIs are used by the EUDI trust validator (Kotlin package
 *   eu.europa.ec.eudi.trustvalidator: `QEAAProvider`, `PubEAAProvider`) and by several other trust list
 *   libraries' tests (search corpus `code`, query "Svctype/EAA/Pub-EAA").
 * - `CA/QC`, `EUlistofthelists` and `EUgeneric` are those of TS 119 612 V2.1.1 clauses 5.5.1.1 and 5.3.3,
 *   and are what the real lists in test/fixtures/trusted-lists/ carry.
 */

/** Issuance of qualified electronic attestations of attributes (QEAA) by a QTSP. */
export const SERVICE_TYPE_QEAA = 'http://uri.etsi.org/TrstSvc/Svctype/EAA/Q';

/** Issuance of EAA by or on behalf of a public sector body responsible for an authentic source (PuB-EAA). */
export const SERVICE_TYPE_PUB_EAA = 'http://uri.etsi.org/TrstSvc/Svctype/EAA/Pub-EAA';

/** Issuance of non-qualified electronic attestations of attributes by a (non-qualified) TSP. */
export const SERVICE_TYPE_NON_QUALIFIED_EAA = 'http://uri.etsi.org/TrstSvc/Svctype/EAA';

/** Qualified certificate issuance (a CA issuing qualified certificates). */
export const SERVICE_TYPE_CA_QC = 'http://uri.etsi.org/TrstSvc/Svctype/CA/QC';

/** `TSLType` of the EU List of Trusted Lists. */
export const TSL_TYPE_EU_LOTL = 'http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists';

/** `TSLType` of an EU member state's trusted list. */
export const TSL_TYPE_EU_GENERIC = 'http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric';
