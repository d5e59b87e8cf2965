import { createHash, randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { CODE_VERIFIER } from '../../contract/oidc/pkce.js';
import type { Signer } from '../keys/signer.js';
import { invalidGrant, invalidRequest } from '../oid4vci/oauth-error.js';
import { hashSecret } from '../tenants/token-secret.js';
import { PresentationSession } from '../verification/presentation-session.entity.js';
import { mappableClaims, resultOf } from '../verification/session-result.js';
import { mappedClaims, subjectOf } from './mapped-claims.js';
import type { OidcClient } from './oidc-client.entity.js';
import { pkceS256Matches } from './pkce.js';

export const ACCESS_TOKEN_TTL_SECONDS = 300;
export const OIDC_ID_TOKEN_TTL_SECONDS = 300;

interface Redeemed {
  session_id: string;
  redirect_uri: string;
  nonce: string;
  code_challenge: string;
  auth_time: Date;
}

export interface TokenForm {
  code?: unknown;
  redirect_uri?: unknown;
  code_verifier?: unknown;
}

/**
 * The authorization_code grant for codes of /oauth2/authorize/complete. The code is spent by the
 * statement that finds it, whatever happens next; presenting it again revokes the access token it
 * gave (RFC 6749 section 4.1.2). redirect_uri must be the one of the request and the PKCE verifier
 * must hash to its challenge (RFC 7636 section 4.6).
 */
export async function exchangeAuthorizationCode(
  em: EntityManager,
  signer: Signer,
  issuer: string,
  client: OidcClient,
  form: TokenForm,
) {
  const { code, redirect_uri: redirectUri, code_verifier: verifier } = form;
  if (typeof code !== 'string' || !code) throw invalidRequest('code is required');
  if (typeof redirectUri !== 'string' || !redirectUri) throw invalidRequest('redirect_uri is required');
  if (typeof verifier !== 'string' || !verifier) throw invalidRequest('code_verifier is required (PKCE)');
  if (!CODE_VERIFIER.test(verifier))
    throw invalidRequest('code_verifier must be 43 to 128 unreserved characters');

  const codeHash = hashSecret(code);
  const [redeemed] = await em.execute<Redeemed[]>(
    `update oidc_authorization set code_redeemed_at = now()
     where code_hash = ? and client_id = ? and code_redeemed_at is null and code_expires_at > now()
     returning session_id, redirect_uri, nonce, code_challenge, auth_time`,
    [codeHash, client.id],
  );
  if (!redeemed) {
    const replayed = await em.execute(
      `update oidc_authorization set access_token_hash = null
       where code_hash = ? and client_id = ? and code_redeemed_at is not null returning session_id`,
      [codeHash, client.id],
    );
    throw invalidGrant(
      replayed.length
        ? 'the code was used before; the access token issued with it is revoked'
        : 'the code is unknown, expired or not for this client',
    );
  }
  if (redeemed.redirect_uri !== redirectUri)
    throw invalidGrant('redirect_uri differs from the authorization request');
  if (!pkceS256Matches(verifier, redeemed.code_challenge))
    throw invalidGrant('code_verifier does not match the code_challenge');

  const session = await em.findOneOrFail(PresentationSession, { id: redeemed.session_id });
  const credentialClaims = (session.result?.claims ?? {}) as Record<string, unknown>;
  const accessToken = randomBytes(32).toString('base64url');
  await em.execute(
    'update oidc_authorization set access_token_hash = ?, access_token_expires_at = ? where session_id = ?',
    [hashSecret(accessToken), new Date(Date.now() + ACCESS_TOKEN_TTL_SECONDS * 1000), redeemed.session_id],
  );
  const now = Math.floor(Date.now() / 1000);
  const digest = createHash('sha256').update(accessToken, 'ascii').digest();
  const idToken = await signer.signJwt(
    'oidc',
    { typ: 'JWT' },
    {
      ...mappedClaims(mappableClaims(resultOf(session)), client.claimsMapping),
      iss: issuer,
      sub: subjectOf(session.tenantId, credentialClaims),
      aud: client.id,
      iat: now,
      exp: now + OIDC_ID_TOKEN_TTL_SECONDS,
      auth_time: Math.floor(new Date(redeemed.auth_time).getTime() / 1000),
      nonce: redeemed.nonce,
      // OIDC Core 3.3.2.11: left half of the SHA-256 of the access token.
      at_hash: digest.subarray(0, digest.length / 2).toString('base64url'),
    },
  );
  return {
    access_token: accessToken,
    token_type: 'Bearer' as const,
    expires_in: ACCESS_TOKEN_TTL_SECONDS,
    scope: 'openid',
    id_token: idToken,
    ...approvalGranted(session),
  };
}

/**
 * RFC 9396 section 7: the authorization details granted, for a sign-in that was an approval, with
 * its id; and the signed receipt (server/approvals) the relying party keeps as evidence.
 */
function approvalGranted(session: PresentationSession) {
  const receipt = (session.result as { receipt?: string } | null)?.receipt;
  if (!session.approval || !receipt) return {};
  const { transaction, power } = session.approval;
  return {
    authorization_details: [{ ...transaction, power, approval_id: session.approvalId }],
    approval_receipt: receipt,
  };
}
