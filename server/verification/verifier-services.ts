import type { EntityManager } from '@mikro-orm/postgresql';
import type { JWK } from 'jose';
import type { ClientIdPrefix } from '../../contract/verification/authorization-request.js';
import type { Config } from '../config.js';
import type { KeyEncryption } from '../keys/key-encryption.js';
import type { Signer } from '../keys/signer.js';
import type { Sql } from '../persistence/sql.js';
import type { TrustServices } from '../trust/trust-services.js';
import type { EphemeralSessions } from './ephemeral-sessions.js';
import type { TrustedIssuerKeys } from './issuer-trust.js';
import type { SessionEvents } from './session-events.js';

/** What the verifier's domain functions are given at start. */
export interface VerifierServices {
  config: Config;
  signer: Signer;
  sealing: KeyEncryption;
  events: SessionEvents;
  /** Prepared statements on the ORM's pool, for the response endpoint's one write. */
  sql: Sql;
  /** The tenants' trust (anchors and trust sources), and how trust sources are fetched. */
  trust: TrustServices;
  /** Sessions of anonymous sign-ins, kept with a TTL until they lead somewhere. */
  ephemeral: EphemeralSessions;
  /** Status list tokens, fetched once per their ttl for the whole process. */
  fetchStatusList: (uri: string) => Promise<string>;
  /** The CWT form of a status list (mdocs), base64url; cached like fetchStatusList. */
  fetchStatusListCwt: (uri: string) => Promise<string>;
  /**
   * The keys of an issuer from its JWT VC Issuer Metadata (cached for a while); throws an Error that
   * says why they cannot be had (the fetch, the document, an empty key set).
   */
  issuerMetadataKeys(iss: string): Promise<JWK[]>;
  /**
   * The issuers a tenant trusts by keys: this service's own issuer, plus the tenant's trusted issuers
   * (the tenant's X.509 trust anchors are the other way, see trust-anchors.ts).
   */
  trustedIssuers: (
    em: EntityManager,
    tenantId: string,
  ) => (iss: string) => Promise<TrustedIssuerKeys | undefined>;
  /**
   * The client identifier under `prefix` (default `x509_hash`) and the certificate chain (without
   * the trust anchor) the request objects carry.
   */
  identity(prefix?: ClientIdPrefix): Promise<{ clientId: string; x5c: string[] }>;
}
