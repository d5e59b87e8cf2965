import type { RegistrationCertificateRole } from '../../contract/admin/registration-certificate.js';
import type { Signer } from '../keys/signer.js';
import { x509 } from '../keys/x509-support.js';
import type { Tenant } from '../tenants/tenant.entity.js';
import { refuse } from './read-registration-certificate.js';
import type { RegisteredParty } from './registered-party.js';

/** X.520 organizationIdentifier: where an access certificate (ETSI TS 119 411-8) names its holder. */
const ORGANIZATION_IDENTIFIER = '2.5.4.97';

/** An identifier this deployment knows its party by, and where it comes from. */
export interface KnownIdentifier {
  value: string;
  source: string;
  /** The access certificate's may also match an intermediary the certificate names (`act`). */
  accessCertificate: boolean;
}

function organizationIdentifierOf(chain: string[]): string | undefined {
  const [leaf] = chain;
  if (!leaf) return undefined;
  return new x509.X509Certificate(Buffer.from(leaf, 'base64')).subjectName.getField(
    ORGANIZATION_IDENTIFIER,
  )[0];
}

/**
 * What the party a certificate is imported for is known by here. ETSI TS 119 475 (section 5.1.1)
 * links a registration to the access certificate by the registered identifier, which is the
 * certificate's organizationIdentifier; EUDI wallets check the registration against the certificate
 * that signed the request object or the signed metadata. So: the organizationIdentifier of the
 * verifier's (or issuer's) signing certificate, and for a tenant's verifier the tenant's mandator
 * organizationIdentifier, since the verifier key is the deployment's and the tenant is the relying
 * party. The development certificates name no organizationIdentifier.
 */
export async function knownIdentifiers(
  signer: Pick<Signer, 'certificateChain'>,
  role: RegistrationCertificateRole,
  tenant: Pick<Tenant, 'id' | 'mandator'> | undefined,
): Promise<KnownIdentifier[]> {
  const known: KnownIdentifier[] = [];
  const mandator = tenant?.mandator?.organizationIdentifier;
  if (tenant && mandator)
    known.push({ value: mandator, source: `tenant ${tenant.id}'s mandator`, accessCertificate: false });
  const own = organizationIdentifierOf(await signer.certificateChain(role));
  if (own) known.push({ value: own, source: `the ${role}'s access certificate`, accessCertificate: true });
  return known;
}

const same = (a: string, b: string) => a.trim().toUpperCase() === b.trim().toUpperCase();

/**
 * Refuses a certificate that registers someone else, where that can be told: when it names
 * identifiers and this deployment knows some for the party, one must be the same (an intermediary
 * it names may be the access certificate's holder). Where either side names none, nothing is
 * compared: a registrar's certificate cannot be matched to a party that has no identifier here.
 */
export function checkConcernsParty(party: RegisteredParty, known: KnownIdentifier[]): void {
  if (known.length === 0 || party.identifiers.length + party.intermediaries.length === 0) return;
  const matches = known.some(
    (k) =>
      party.identifiers.some((id) => same(id, k.value)) ||
      (k.accessCertificate && party.intermediaries.some((id) => same(id, k.value))),
  );
  if (matches) return;
  const named = [...party.identifiers, ...party.intermediaries.map((i) => `${i} (intermediary)`)];
  throw refuse(
    `it registers ${named.join(', ')}, not this party: ${known.map((k) => `${k.value} (${k.source})`).join(', ')}`,
  );
}
