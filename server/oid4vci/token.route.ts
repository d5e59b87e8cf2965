import { initServer } from '@ts-rest/express';
import { PRE_AUTHORIZED_CODE_GRANT } from '../../contract/issuance/issuance-request.js';
import { oid4vciContract } from '../../contract/oid4vci/oid4vci-contract.js';
import type { OfferCodes } from '../issuance/offer-codes.js';
import { redeemPreAuthorizedCode } from '../issuance/redeem-pre-authorized-code.js';
import { ACCESS_TOKEN_TTL_SECONDS } from './access-token-store.js';
import { invalidRequest, unsupportedGrantType } from './oauth-error.js';

const s = initServer();

/** OID4VCI 1.0 section 6: the token endpoint, for the pre-authorized code grant. */
export function tokenRoute(codes: OfferCodes) {
  return s.route(oid4vciContract.token, async ({ body, req, res }) => {
    res.setHeader('Cache-Control', 'no-store');
    if (!req.is('application/x-www-form-urlencoded')) {
      throw invalidRequest(
        'the token request must be application/x-www-form-urlencoded (RFC 6749 section 4.1.3)',
      );
    }
    if (!body.grant_type) throw invalidRequest('grant_type is required');
    if (body.grant_type !== PRE_AUTHORIZED_CODE_GRANT)
      throw unsupportedGrantType(`only ${PRE_AUTHORIZED_CODE_GRANT} is supported`);
    const code = body['pre-authorized_code'];
    if (!code) throw invalidRequest('pre-authorized_code is required');
    const accessToken = await redeemPreAuthorizedCode(req.em, codes, code, body.tx_code);
    return {
      status: 200,
      body: { access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_TTL_SECONDS },
    };
  });
}
