import { initServer } from '@ts-rest/express';
import { PRE_AUTHORIZED_CODE_GRANT } from '../../contract/issuance/issuance-request.js';
import { oid4vciContract } from '../../contract/oid4vci/oid4vci-contract.js';
import type { Config } from '../config.js';
import type { OfferCodes } from '../issuance/offer-codes.js';
import type { Sql } from '../persistence/sql.js';
import { invalidRequest, unsupportedGrantType } from './oauth-error.js';
import { preAuthorizedCodeGrant } from './pre-authorized-code-grant.js';
import { refreshTokenGrant } from './refresh/refresh-token-grant.js';

const s = initServer();

/**
 * OID4VCI 1.0 section 6: the issuer's first token endpoint, for the pre-authorized code grant (and
 * the refresh tokens it may give).
 * The metadata now names `/oauth2/token` (one authorization server per origin); this one stays for
 * wallets that cached the old metadata, and runs the same grant.
 */
export function tokenRoute(config: Config, codes: OfferCodes, sql: Sql) {
  return s.route(oid4vciContract.token, async ({ body, req, res }) => {
    res.setHeader('Cache-Control', 'no-store');
    if (!req.is('application/x-www-form-urlencoded')) {
      throw invalidRequest(
        'the token request must be application/x-www-form-urlencoded (RFC 6749 section 4.1.3)',
      );
    }
    if (!body.grant_type) throw invalidRequest('grant_type is required');
    if (body.grant_type === 'refresh_token')
      return { status: 200, body: await refreshTokenGrant(req, res, config) };
    if (body.grant_type !== PRE_AUTHORIZED_CODE_GRANT)
      throw unsupportedGrantType(`only ${PRE_AUTHORIZED_CODE_GRANT} and refresh_token are supported`);
    return { status: 200, body: await preAuthorizedCodeGrant(req, res, config, codes, sql) };
  });
}
