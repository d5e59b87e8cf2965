import type { CredentialConfiguration } from '../credential-configurations/credential-configuration.entity.js';
import type { CredentialFormat, IssuingFormat } from './credential-format.js';
import { jwtVcJsonFormat } from './jwt-vc-json/jwt-vc-json-format.js';
import { msoMdocFormat } from './mso-mdoc/mso-mdoc-format.js';
import { sdJwtVcFormat } from './sd-jwt-vc/sd-jwt-vc-format.js';

/** Every format this service knows, by identifier; the one place a new format is added. */
const FORMATS: ReadonlyMap<string, CredentialFormat> = new Map(
  [sdJwtVcFormat, msoMdocFormat, jwtVcJsonFormat].map((f) => [f.id, f]),
);

/** The format of a presentation or query, or undefined when this service does not verify it. */
export const credentialFormat = (id: string): CredentialFormat | undefined => FORMATS.get(id);

/** The issuing side of a configuration's format; a configuration is only ever stored with one. */
export function issuingFormat(c: Pick<CredentialConfiguration, 'id' | 'format'>): IssuingFormat {
  const issuing = FORMATS.get(c.format)?.issuing;
  if (!issuing)
    throw new Error(`configuration ${c.id} has format ${c.format}, which this service does not issue`);
  return issuing;
}

/** `vp_formats_supported` of a verifier's request (OID4VP 1.0 appendix B); under HAIP its formats only. */
export const vpFormatsSupported = (haip: boolean) =>
  Object.fromEntries(
    [...FORMATS.values()].filter((f) => !haip || f.haip).map((f) => [f.id, f.vpFormatsSupported(haip)]),
  );

/** The formats HAIP 1.0 names (sections 5 and 6), for messages that list them. */
export const haipFormats = () => [...FORMATS.values()].filter((f) => f.haip).map((f) => f.id);
