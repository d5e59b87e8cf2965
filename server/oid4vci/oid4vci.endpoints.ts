import { createExpressEndpoints, initServer } from '@ts-rest/express';
import type { Express, NextFunction, Request, Response } from 'express';
import { oid4vciContract } from '../../contract/oid4vci/oid4vci-contract.js';
import type { AppContext } from '../app-context.js';
import { formBody } from '../http/body-parsers.js';
import type { OfferCodes } from '../issuance/offer-codes.js';
import { credentialRoute } from './credential.route.js';
import { credentialOfferRoute } from './credential-offer.route.js';
import { deferredCredentialRoute } from './deferred/deferred-credential.route.js';
import { decryptCredentialRequest } from './encryption/decrypt-credential-request.js';
import { metadataRoutes } from './metadata.routes.js';
import { nonceRoute } from './nonce.route.js';
import { notificationRoute } from './notification.route.js';
import { oauthValidationError } from './oauth-validation-error.js';
import { offerPageRoute } from './offer-page.route.js';
import { signedMetadata } from './signed-metadata.js';
import { tokenRoute } from './token.route.js';
import { walletSecurity } from './wallet-security.js';

const s = initServer();

/** Mounts the wallet-facing OID4VCI endpoints and the issuer's discovery documents. */
export function mountOid4vci(app: Express, ctx: AppContext, codes: OfferCodes): void {
  const { issuerUrl } = ctx.config;
  // Reads WALLET_PROVIDER_TRUST_ANCHORS now, so that a bad file stops the start.
  walletSecurity(ctx.config);
  app.get('/.well-known/openid-credential-issuer', signedMetadata(ctx));
  app.get('/oid4vci/v1/offer/:offerId', (req: Request, res: Response, next: NextFunction) => {
    offerPageRoute(issuerUrl)(req, res).catch(next);
  });
  app.use('/oid4vci/v1/token', formBody('16kb'));
  app.post('/oid4vci/v1/credential', decryptCredentialRequest(ctx.config));
  app.post('/oid4vci/v1/deferred_credential', decryptCredentialRequest(ctx.config));
  const router = s.router(oid4vciContract, {
    ...metadataRoutes(ctx),
    credentialOffer: credentialOfferRoute(issuerUrl, codes),
    token: tokenRoute(ctx.config, codes, ctx.sql),
    nonce: nonceRoute(ctx),
    credential: credentialRoute(ctx),
    notification: notificationRoute(ctx),
    deferredCredential: deferredCredentialRoute(ctx),
  });
  createExpressEndpoints(oid4vciContract, router, app, {
    responseValidation: true,
    requestValidationErrorHandler: oauthValidationError,
  });
}
