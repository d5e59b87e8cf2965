import type { JWK } from 'jose';
import type { CredentialConfigurationSupported } from '../../contract/oid4vci/credential-issuer-metadata.js';
import type { ClaimsPathPointer, CredentialQuery } from '../../contract/oid4vp/dcql-query.js';
import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import type { Signer } from '../keys/signer.js';
import type { Checks, VerifiedCredential } from '../oid4vp/verification/types.js';

/** What every format's configuration metadata shares, decided outside the format. */
export type SharedConfigurationMembers = Pick<
  CredentialConfigurationSupported,
  'scope' | 'proof_types_supported'
>;

/** What one credential is signed from: the configuration, the claims and its status entry. */
export interface CredentialToSign {
  configuration: CredentialConfiguration;
  issuerUrl: string;
  /** The integrator's payload (its shape is the configuration's `payload_schema`). */
  claims: Record<string, unknown>;
  /** The holder's public key; absent for an unbound credential (direct delivery without a key). */
  holderJwk?: JWK | Record<string, unknown> | undefined;
  status: { idx: number; uri: string };
  issuedAt: Date;
  expiresAt: Date;
}

/**
 * One credential format behind the one seam that issuance, verification, SCIM provisioning and the
 * OIDC face ask (DESIGN.md, "Credential formats"): nothing outside a format's folder branches on a
 * format identifier. A format that is only verified (a W3C JWT VC) leaves the issuing members out.
 */
export interface CredentialFormat {
  /** The OID4VCI / OID4VP format identifier, e.g. `dc+sd-jwt`. */
  readonly id: string;
  /** Whether HAIP 1.0 (sections 5 and 6) names this format: sessions under the profile take only those. */
  readonly haip: boolean;
  /**
   * Whether its holder binding carries OpenID4VP transaction data hashes (SD-JWT VC: the KB-JWT,
   * OID4VP 1.0 B.3.3), so that a presentation in it can authorize a transaction (an approval).
   */
  readonly bindsTransactionData: boolean;
  /** Its `vp_formats_supported` member (OID4VP 1.0 appendix B); `haip`: under the HAIP profile. */
  vpFormatsSupported(haip: boolean): Record<string, unknown>;
  /**
   * Why a DCQL claims path cannot name a claim of this format, or undefined (an mdoc's is exactly
   * [namespace, element], OID4VP 1.0 B.2.4); absent: any path the DCQL schema takes.
   */
  claimsPathProblem?(path: readonly unknown[]): string | undefined;
  /** Verifies one presentation answering `query` under the transaction's checks. */
  verifyPresentation(
    presentation: unknown,
    query: CredentialQuery,
    checks: Checks,
  ): Promise<VerifiedCredential>;
  issuing?: IssuingFormat;
}

/** The members of a format this service also issues. */
export interface IssuingFormat {
  /** The credential type wallets and DCQL queries match on: an SD-JWT VC `vct`, an mdoc doctype. */
  typeOf(c: CredentialConfiguration, issuerUrl: string): string;
  /**
   * The format's members of a `credential_configurations_supported` entry (OID4VCI 1.0 appendix A):
   * `format`, the type, binding methods, signing algorithms and the claims description, beside the
   * members every format shares.
   */
  describeConfiguration(
    c: CredentialConfiguration,
    issuerUrl: string,
    shared: SharedConfigurationMembers,
  ): CredentialConfigurationSupported;
  /** Whether every credential must be bound to a holder key (an mdoc's MSO always names a device key). */
  readonly holderBindingRequired: boolean;
  /** Signs one credential; the answer is what the credential endpoint returns in `credential`. */
  signCredential(signer: Signer, input: CredentialToSign): Promise<string>;
  /** A DCQL Credential Query for a credential of `type` with the claims at `paths`. */
  credentialQuery(type: string, paths: ClaimsPathPointer[], id: string): CredentialQuery;
  /**
   * The part of the configuration's payload schema that describes an employee's data (SCIM
   * provisioning fills in what it declares: mandator, mappings, power).
   */
  employeeSchema(c: CredentialConfiguration): Record<string, unknown>;
  /**
   * The configuration's payload made from an employee's data (SCIM provisioning builds the SD-JWT VC
   * shape: mandator, mandatee, power): the same data in this format's own shape.
   */
  payloadFromEmployee(c: CredentialConfiguration, employee: Record<string, unknown>): Record<string, unknown>;
  /** The type's metadata document served at its type URL (SD-JWT VC type metadata), when it has one. */
  typeMetadata?(c: CredentialConfiguration, issuerUrl: string): Record<string, unknown>;
}
