import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { OAuthErrorResponse } from '../oid4vci/oauth-error-response.js';
import { DcApiResponse } from '../oid4vp/dc-api-response.js';

const c = initContract();

/** OID4VP 1.0 section 8.2: the verifier's answer to a direct_post response. */
export const AuthorizationResponseResult = z.object({
  redirect_uri: z.string().url().optional().describe('Where the wallet sends the user next'),
});

/**
 * Which way the wallet was invoked: `same-device` for the link a browser opened on the wallet's
 * device (the answer redirects back there with a response_code); absent for the QR code scanned from
 * another device (never redirected). Set by the verifier in the request_uri and response_uri.
 */
export const PresentationFlow = z
  .object({ flow: z.enum(['same-device']).optional() })
  .describe('flow=same-device: the request link of the same-device flow (HAIP 1.0 redirects)');

/** The wallet-facing OpenID4VP 1.0 interface: request object by reference and the response endpoint. */
export const oid4vpContract = c.router(
  {
    requestObject: {
      method: 'GET',
      path: '/oid4vp/auth-request/:id',
      pathParams: z.object({ id: z.string() }),
      query: PresentationFlow,
      responses: {
        200: c.otherResponse({ contentType: 'application/oauth-authz-req+jwt', body: z.string() }),
        404: OAuthErrorResponse,
      },
      summary: 'The signed request object of a session (never a status endpoint)',
    },
    authorizationResponse: {
      method: 'POST',
      path: '/oid4vp/auth-response',
      contentType: 'application/x-www-form-urlencoded',
      query: PresentationFlow,
      body: z
        .object({
          vp_token: z.string().optional(),
          state: z.string().optional(),
          response: z.string().optional().describe('direct_post.jwt: the encrypted response (JWE)'),
          error: z
            .string()
            .optional()
            .describe('The wallet declined (OID4VP section 8.5), e.g. access_denied'),
          error_description: z.string().optional(),
        })
        .passthrough(),
      responses: { 200: AuthorizationResponseResult, 400: OAuthErrorResponse },
      summary: 'The wallet posts the vp_token (direct_post) or the encrypted response (direct_post.jwt)',
    },
    dcApiResponse: {
      method: 'POST',
      path: '/oid4vp/dc-api-response/:id',
      pathParams: z.object({ id: z.string().min(1).max(200) }),
      body: DcApiResponse,
      responses: { 200: AuthorizationResponseResult, 400: OAuthErrorResponse },
      summary:
        'The page that called the Digital Credentials API posts the wallet’s answer for session {id} (OID4VP 1.0 Appendix A); no token: the session id is the handle, and CORS allows any origin',
    },
  },
  { strictStatusCodes: true },
);
