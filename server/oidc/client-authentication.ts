import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request } from 'express';
import { createLocalJWKSet, decodeJwt, type JSONWebKeySet, jwtVerify } from 'jose';
import { CONTROL_CHARACTERS } from '../http/request-hygiene.js';
import { invalidRequest, OAuthError } from '../oid4vci/oauth-error.js';
import { authenticateToken } from '../tenants/token-auth.js';
import { secretMatches } from '../tenants/token-secret.js';
import { OidcClient } from './oidc-client.entity.js';

export const JWT_BEARER_ASSERTION = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
export const ASSERTION_ALGORITHMS = ['ES256', 'ES384', 'ES512', 'PS256', 'RS256', 'EdDSA'];
/** Assertions may live at most this long, which bounds how long their jti must be remembered. */
const MAX_ASSERTION_SECONDS = 600;

export const invalidClient = (d = 'client authentication failed') => new OAuthError(401, 'invalid_client', d);

/** A registered relying party, or (redirect codes of integrator sessions) a tenant and its integrator token. */
export type AuthenticatedClient =
  | { kind: 'relying-party'; client: OidcClient }
  | { kind: 'tenant'; tenantId: string; tokenId: string };

const formField = (req: Request, name: string) =>
  typeof req.body?.[name] === 'string' ? (req.body[name] as string) : undefined;

/**
 * Authenticates the caller of the token endpoint (or of PAR, RFC 9126 section 2) by exactly one
 * method (RFC 6749 section 2.3): HTTP Basic, client_secret in the form, or a private_key_jwt
 * assertion (RFC 7523, aud one of `audiences`: the endpoint called, and at PAR also the issuer and
 * the token endpoint; single-use jti). A registered client must use the method it registered.
 */
export async function authenticateClient(
  em: EntityManager,
  req: Request,
  audiences: string | string[],
): Promise<AuthenticatedClient> {
  const basic = /^Basic +(\S+) *$/i.exec(req.headers.authorization ?? '')?.[1];
  const postedSecret = formField(req, 'client_secret');
  const assertion = formField(req, 'client_assertion');
  const methods = [basic, postedSecret, assertion].filter((m) => m !== undefined).length;
  if (methods > 1) throw invalidRequest('use exactly one client authentication method');
  const formClientId = formField(req, 'client_id');

  if (assertion !== undefined) {
    if (formField(req, 'client_assertion_type') !== JWT_BEARER_ASSERTION)
      throw invalidClient(`client_assertion_type must be ${JWT_BEARER_ASSERTION}`);
    return {
      kind: 'relying-party',
      client: await verifyClientAssertion(em, assertion, formClientId, audiences),
    };
  }
  let id = formClientId;
  let secret = postedSecret;
  if (basic) {
    // RFC 6749 section 2.3.1: both halves are form-urlencoded before they are joined.
    const decoded = Buffer.from(basic, 'base64').toString();
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidClient('malformed Basic credentials');
    try {
      id = decodeURIComponent(decoded.slice(0, colon).replaceAll('+', ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replaceAll('+', ' '));
    } catch {
      throw invalidClient('malformed Basic credentials');
    }
    // Decoded here, after the edge's checks of the raw request: refused before they reach SQL.
    if (CONTROL_CHARACTERS.test(id + secret)) throw invalidClient('malformed Basic credentials');
    if (formClientId !== undefined && formClientId !== id)
      throw invalidClient('client_id differs from Basic');
  }
  if (!id || !secret) throw invalidClient();
  const client = await em.findOne(OidcClient, { id });
  if (client) {
    const method = basic ? 'client_secret_basic' : 'client_secret_post';
    if (client.tokenEndpointAuthMethod !== method)
      throw invalidClient(`the client is registered for ${client.tokenEndpointAuthMethod}`);
    if (!client.secretHash || !secretMatches(secret, client.secretHash)) throw invalidClient();
    return { kind: 'relying-party', client };
  }
  const principal = await authenticateToken(em, secret, 'integrator');
  if (!principal || principal.tenantId !== id) throw invalidClient();
  return { kind: 'tenant', tenantId: id, tokenId: principal.tokenId };
}

async function verifyClientAssertion(
  em: EntityManager,
  assertion: string,
  formClientId: string | undefined,
  audiences: string | string[],
): Promise<OidcClient> {
  let sub: unknown;
  try {
    sub = decodeJwt(assertion).sub;
  } catch {
    throw invalidClient('client_assertion is not a JWT');
  }
  const clientId = formClientId ?? sub;
  if (typeof clientId !== 'string' || (formClientId !== undefined && sub !== formClientId))
    throw invalidClient('client_assertion sub must be the client_id');
  const client = await em.findOne(OidcClient, { id: clientId });
  if (!client?.jwks || client.tokenEndpointAuthMethod !== 'private_key_jwt')
    throw invalidClient('the client is not registered for private_key_jwt');
  let payload: { exp?: number; jti?: string };
  try {
    ({ payload } = await jwtVerify(assertion, createLocalJWKSet(client.jwks as unknown as JSONWebKeySet), {
      issuer: client.id,
      subject: client.id,
      audience: audiences,
      algorithms: ASSERTION_ALGORITHMS,
      requiredClaims: ['exp', 'jti'],
      clockTolerance: 30,
    }));
  } catch (e) {
    throw invalidClient(`client_assertion rejected: ${(e as Error).message}`);
  }
  if (typeof payload.jti !== 'string' || !payload.jti || payload.jti.length > 256)
    throw invalidClient('client_assertion jti must be a string of at most 256 characters');
  const exp = payload.exp as number;
  if (exp > Date.now() / 1000 + MAX_ASSERTION_SECONDS)
    throw invalidClient(`client_assertion may live at most ${MAX_ASSERTION_SECONDS} s`);
  await em.execute('delete from oidc_client_assertion where client_id = ? and expires_at < now()', [
    client.id,
  ]);
  const fresh = await em.execute(
    `insert into oidc_client_assertion (client_id, jti, expires_at) values (?, ?, to_timestamp(?))
     on conflict do nothing returning jti`,
    [client.id, payload.jti, exp + 30],
  );
  if (!fresh.length) throw invalidClient('client_assertion was used before (jti)');
  return client;
}
