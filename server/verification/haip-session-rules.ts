import type { EntityManager } from '@mikro-orm/postgresql';
import {
  type ClientIdPrefix,
  PresentationProfile,
  type ResponseMode,
} from '../../contract/verification/authorization-request.js';
import type { FieldError } from '../domain-errors.js';
import { validationError } from '../domain-errors.js';
import { haipFormats } from '../formats/credential-formats.js';
import { listTrustAnchors } from './trust-anchors.js';

/** The HAIP 1.0 profile's name, as tenants choose it and session results report it. */
export const HAIP_1_0 = PresentationProfile.enum['haip-1.0'];

/** What of a session request the HAIP 1.0 profile decides. */
export interface ProfiledRequest {
  response_mode: ResponseMode;
  client_id_prefix?: ClientIdPrefix | undefined;
}

/**
 * Refuses, when the session is created, a request HAIP 1.0 does not allow a verifier to make, so the
 * integrator learns it at once instead of from every wallet's answer failing:
 * - section 5.1 (redirects): response encryption, `direct_post.jwt`; over the Digital Credentials
 *   API (its own section) `dc_api.jwt`, the encrypted mode there;
 * - section 5: signed requests use the `x509_hash` client identifier prefix;
 * - sections 5 and 6: credentials are of the formats the profile names (`haipFormats`), and
 *   holder binding stays required (section 6.1.1.1: a KB-JWT MUST always be present);
 * - section 6.1.1: issuers are trusted by their x5c chain, so a tenant without trust anchors could
 *   never verify anything.
 * Every violation is listed, by field.
 */
export async function checkHaipSessionRequest(
  em: EntityManager,
  tenantId: string,
  req: ProfiledRequest,
  dcqlQuery: Record<string, unknown>,
): Promise<void> {
  const errors: FieldError[] = [];
  if (req.response_mode !== 'direct_post.jwt' && req.response_mode !== 'dc_api.jwt')
    errors.push({
      field: 'response_mode',
      message: 'the tenant’s HAIP 1.0 profile requires encrypted responses (direct_post.jwt or dc_api.jwt)',
    });
  if (req.client_id_prefix && req.client_id_prefix !== 'x509_hash')
    errors.push({
      field: 'client_id_prefix',
      message: 'the tenant’s HAIP 1.0 profile signs requests under the x509_hash client identifier',
    });
  const credentials = (dcqlQuery.credentials ?? []) as Record<string, unknown>[];
  for (const [i, c] of credentials.entries()) {
    if (!haipFormats().includes(String(c.format)))
      errors.push({
        field: `dcql_query.credentials.${i}.format`,
        message: `the tenant’s HAIP 1.0 profile presents ${haipFormats().join(' or ')}, not ${String(c.format)}`,
      });
    if (c.require_cryptographic_holder_binding === false)
      errors.push({
        field: `dcql_query.credentials.${i}.require_cryptographic_holder_binding`,
        message: 'the tenant’s HAIP 1.0 profile always requires holder binding (a KB-JWT)',
      });
  }
  if ((await listTrustAnchors(em, tenantId)).length === 0)
    errors.push({
      field: 'presentation_profile',
      message:
        'the tenant’s HAIP 1.0 profile trusts issuers only by x5c chains to its trust anchors, and it has none',
    });
  if (errors.length) throw validationError(errors);
}
