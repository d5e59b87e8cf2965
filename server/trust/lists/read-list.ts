/**
 * What a published trust list says once its signature is checked: the shape both readers produce,
 * the ETSI TS 119 612 trusted list / LOTL reader (XML, XAdES) and the ETSI TS 119 602 LoTE reader
 * (JSON, JAdES). Everything here is in the list's own vocabulary (its service type URIs); which of
 * those a tenant's trust source vouches for is decided elsewhere (server/trust/service-types.ts).
 */

/** One service of a listed entity: its type as the list names it, and the certificates that identify it. */
export interface ListedService {
  /** TS 119 612 `ServiceTypeIdentifier`, TS 119 602 `ServiceTypeIdentifier` (a URI). */
  serviceType: string;
  /** The service's current status URI when the list has one (TS 119 612 `ServiceStatus`). */
  status?: string;
  /** `ServiceDigitalIdentity` X.509 certificates, standard base64 DER. */
  certificates: string[];
}

export interface ListedEntity {
  /** The entity's (trust service provider's) name, in English when the list has it. */
  name: string;
  services: ListedService[];
}

/** A LOTL's pointer to a member state's list: where it is and who signs it. */
export interface ListPointer {
  url: string;
  /** `SchemeTerritory` of the pointed list, e.g. `DE`. */
  territory?: string;
  /** The certificates the pointed list's operator signs with, standard base64 DER. */
  signerCertificates: string[];
  /** `MimeType` qualifier, e.g. `application/vnd.etsi.tsl+xml`. */
  mimeType?: string;
  /** `TSLType` of the pointed list, e.g. `http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUgeneric`. */
  type?: string;
}

export interface ReadList {
  /** `ListIssueDateTime`. */
  issuedAt?: Date;
  /** `NextUpdate`; absent for a closed list. */
  nextUpdate?: Date;
  /** `TSLSequenceNumber` / `LoTESequenceNumber`. */
  sequence?: number;
  /** `SchemeTerritory`. */
  territory?: string;
  /** `TSLType` / `LoTEType`, e.g. `http://uri.etsi.org/TrstSvc/TrustedList/TSLType/EUlistofthelists`. */
  type?: string;
  entities: ListedEntity[];
  /** A LOTL's (or a LoTE's) pointers to other lists; empty for a plain list. */
  pointers: ListPointer[];
  /** SHA-256 (hex) of the pinned certificate that signed the list. */
  signedBy: string;
}

/** Why a list was refused. The list is never partly used: any of these leaves the last good copy. */
export type TrustListErrorCode =
  /** Not well-formed, a DTD, an entity, or the wrong shape. */
  | 'malformed'
  /** No signature, a signature that does not verify, or one that does not cover the list as read. */
  | 'signature_invalid'
  /** Signed, but not by one of the pinned certificates. */
  | 'signer_not_pinned'
  /** Past its NextUpdate (the caller decides on a grace). */
  | 'expired'
  /** Larger than the reader accepts. */
  | 'too_large';

export class TrustListError extends Error {
  override name = 'TrustListError';
  constructor(
    readonly code: TrustListErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Lists larger than this are refused before parsing (the EU LOTL is about 0.5 MB, a large TL 5 MB). */
export const MAX_LIST_BYTES = 16 * 1024 * 1024;
