import type { EntityManager } from '@mikro-orm/postgresql';
import type { Response } from 'express';
import type { Config } from '../../config.js';
import { cachedTenant } from '../../tenants/tenant-cache.js';
import { invalidEncryptionParameters } from '../oauth-error.js';
import { wasEncrypted } from './decrypt-credential-request.js';
import { type ResponseEncryption, responseEncryptionOf } from './response-encryption.js';

/**
 * How the credential response is to be encrypted, if at all, checked before anything is issued.
 * Section 8.2: asking for an encrypted response needs an encrypted request, so that no one on the
 * way can swap in their own key. Where encryption is required (CREDENTIAL_ENCRYPTION_REQUIRED, or
 * the issuance's tenant's `encryption_required`) both are: a plain request, or an encrypted one that
 * asks for a plain response, is `invalid_encryption_parameters` (section 8.3.1.2, "missing").
 */
export async function responseEncryptionOfRequest(
  em: EntityManager,
  config: Config,
  res: Response,
  request: { credential_response_encryption?: unknown },
  tenantId: string,
): Promise<ResponseEncryption | undefined> {
  const encrypted = wasEncrypted(res);
  const asked = request.credential_response_encryption !== undefined;
  if (asked && !encrypted)
    throw invalidEncryptionParameters(
      'credential_response_encryption needs an encrypted request: send it as an application/jwt JWE to credential_request_encryption.jwks',
    );
  if (!asked && (await encryptionRequired(em, config, tenantId)))
    throw invalidEncryptionParameters(
      'this issuer requires encryption: send the request as a JWE with credential_response_encryption',
    );
  return asked ? responseEncryptionOf(request.credential_response_encryption) : undefined;
}

async function encryptionRequired(em: EntityManager, config: Config, tenantId: string): Promise<boolean> {
  if (config.CREDENTIAL_ENCRYPTION_REQUIRED === 'true') return true;
  return (await cachedTenant(em, tenantId))?.encryptionRequired === true;
}
