import { initServer } from '@ts-rest/express';
import {
  AUTHORIZATION_CODE_GRANT,
  PRE_AUTHORIZED_CODE_GRANT,
} from '../../contract/issuance/issuance-request.js';
import { oid4vciContract } from '../../contract/oid4vci/oid4vci-contract.js';
import { findOpenOffer } from '../issuance/find-open-offer.js';
import type { Issuance } from '../issuance/issuance.entity.js';
import type { OfferCodes } from '../issuance/offer-codes.js';
import { TX_CODE_LENGTH } from '../issuance/offer-codes.js';
import { codeExpiry } from '../issuance/offer-lifetimes.js';

const s = initServer();

/** OID4VCI 1.0 section 4.1.3: the offer by reference. Unknown, used or expired offers are 404. */
export function credentialOfferRoute(issuerUrl: string, codes: OfferCodes) {
  return s.route(oid4vciContract.credentialOffer, async ({ params, req, res }) => {
    res.setHeader('Cache-Control', 'no-store');
    const issuance = await findOpenOffer(req.em, params.offerId);
    if (!issuance) {
      return {
        status: 404,
        body: { error: 'not_found', error_description: 'no such offer, or it was used or has expired' },
      };
    }
    return {
      status: 200,
      body: {
        credential_issuer: issuerUrl,
        credential_configuration_ids: [issuance.configurationId],
        grants:
          issuance.grantType === AUTHORIZATION_CODE_GRANT
            ? { [AUTHORIZATION_CODE_GRANT]: { issuer_state: codes.issuerState(issuance.id) } }
            : preAuthorizedGrant(issuance, codes),
      },
    };
  });
}

/** Section 4.1.1: a fresh pre-authorized code, and the tx_code's shape when one was mailed. */
function preAuthorizedGrant(issuance: Issuance, codes: OfferCodes) {
  return {
    [PRE_AUTHORIZED_CODE_GRANT]: {
      'pre-authorized_code': codes.preAuthorizedCode(issuance.id, codeExpiry(issuance)),
      ...(issuance.txCodeHash
        ? {
            tx_code: {
              input_mode: 'numeric' as const,
              length: TX_CODE_LENGTH,
              description: 'Enter the activation code we sent you by e-mail',
            },
          }
        : {}),
    },
  };
}
