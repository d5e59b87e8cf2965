import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request } from 'express';
import { bearerToken } from '../tenants/token-auth.js';
import { issuanceOfAccessToken } from './access-token-store.js';
import { invalidToken } from './oauth-error.js';

/** The issuance a request's `Authorization: Bearer` access token is bound to, or invalid_token. */
export async function issuanceOfRequest(em: EntityManager, req: Request): Promise<string> {
  const token = bearerToken(req.headers.authorization);
  if (!token) throw invalidToken('a Bearer access token from the token endpoint is required');
  const issuanceId = await issuanceOfAccessToken(em, token);
  if (!issuanceId) throw invalidToken('the access token is unknown or expired');
  return issuanceId;
}
