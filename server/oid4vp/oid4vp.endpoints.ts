import { createExpressEndpoints, initServer } from '@ts-rest/express';
import type { Express } from 'express';
import { oid4vpContract } from '../../contract/verification/oid4vp-contract.js';
import { formBody } from '../http/body-parsers.js';
import { invalidRequest } from '../oid4vci/oauth-error.js';
import { oauthValidationError } from '../oid4vci/oauth-validation-error.js';
import { findSession } from '../verification/ephemeral-sessions.js';
import { statusOf } from '../verification/presentation-session.entity.js';
import { signRequestObject } from '../verification/request-object.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { completeDcApiPresentation } from './complete-dc-api-presentation.js';
import { completePresentation } from './complete-presentation.js';

const s = initServer();

/**
 * The wallet-facing OID4VP endpoints: the request object by reference, the response endpoint, and
 * the route where a page relays what the Digital Credentials API gave it.
 */
export function mountOid4vp(app: Express, services: VerifierServices): void {
  app.use('/oid4vp/auth-response', formBody('2mb'));
  const router = s.router(oid4vpContract, {
    requestObject: async ({ params, query, req, res }) => {
      res.setHeader('Cache-Control', 'no-store');
      const session = (await findSession(req.em, services.ephemeral, { id: params.id }, services.sql))
        ?.session;
      if (!session || statusOf(session) !== 'pending') {
        return {
          status: 404,
          body: {
            error: 'not_found',
            error_description: 'no such request, or it has expired or been answered',
          },
        };
      }
      return {
        status: 200,
        body: await signRequestObject(req.em, services, session, query.flow === 'same-device'),
      };
    },
    authorizationResponse: async ({ body, query, req, res }) => {
      res.setHeader('Cache-Control', 'no-store');
      if (!req.is('application/x-www-form-urlencoded'))
        throw invalidRequest('the response must be application/x-www-form-urlencoded');
      return {
        status: 200,
        body: await completePresentation(req.em, services, body, query.flow === 'same-device'),
      };
    },
    dcApiResponse: async ({ params, body, req, res }) => {
      res.setHeader('Cache-Control', 'no-store');
      // A browser names the page's origin itself; a page that claims another one is not believed.
      const sentFrom = req.headers.origin;
      if (sentFrom !== undefined && sentFrom !== body.origin)
        throw invalidRequest('origin is not the origin of the page that sent the answer');
      return { status: 200, body: await completeDcApiPresentation(req.em, services, params.id, body) };
    },
  });
  createExpressEndpoints(oid4vpContract, router, app, {
    responseValidation: true,
    requestValidationErrorHandler: oauthValidationError,
  });
}
