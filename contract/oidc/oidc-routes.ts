import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { OAuthErrorResponse } from '../oid4vci/oauth-error-response.js';
import { OidcAuthorizeCompleteQuery, OidcAuthorizeQuery } from './authorize-request.js';
import { IssuanceSignInForm } from './issuance-sign-in.js';
import { Jwks } from './jwks.js';
import { LoginEventsQuery, LoginStatusEvent } from './login-events.js';
import { OidcTokenRequest, OidcTokenRequestHeaders } from './oidc-token-request.js';
import { OidcTokenResponse } from './oidc-token-response.js';
import { OpenIdConfiguration } from './openid-configuration.js';
import { PushedAuthorizationRequest, PushedAuthorizationResponse } from './pushed-authorization-request.js';
import { UserinfoResponse } from './userinfo-response.js';

const c = initContract();
const html = (description: string) =>
  c.otherResponse({ contentType: 'text/html', body: z.string().describe(description) });
const tooMany = { 429: OAuthErrorResponse };
const redirect = (description: string) => z.object({ Location: z.string().describe(description) });

/**
 * The authorization server and the verifier's OpenID Connect provider, as served by server/oidc/
 * (plain express routes: HTML pages, redirects, form bodies, Basic client authentication), described
 * here for the OpenAPI document.
 */
export const oidcRoutes = c.router(
  {
    openidConfiguration: {
      method: 'GET',
      path: '/.well-known/openid-configuration',
      responses: { 200: OpenIdConfiguration, 404: OAuthErrorResponse, ...tooMany },
      summary:
        'OpenID Connect Discovery metadata of the authorization server at this host (the same document as /.well-known/oauth-authorization-server)',
    },
    jwks: {
      method: 'GET',
      path: '/oauth2/jwks',
      responses: { 200: Jwks, ...tooMany },
      summary: 'The keys ID tokens are signed with',
    },
    pushedAuthorizationRequest: {
      method: 'POST',
      path: '/oauth2/par',
      contentType: 'application/x-www-form-urlencoded',
      headers: OidcTokenRequestHeaders,
      body: PushedAuthorizationRequest,
      responses: {
        201: PushedAuthorizationResponse,
        400: OAuthErrorResponse,
        401: OAuthErrorResponse,
        404: OAuthErrorResponse,
        ...tooMany,
        503: OAuthErrorResponse,
      },
      summary:
        'A wallet pushes its authorization request for a credential, a relying party its sign-in request (RFC 9126); 404 at a host name that is neither the issuer’s nor the verifier’s',
      metadata: { security: 'token-client' },
    },
    authorize: {
      method: 'GET',
      path: '/oauth2/authorize',
      query: OidcAuthorizeQuery,
      responses: {
        200: html(
          'Sign-in: the login page, a QR code for the wallet and a link that opens a wallet on this device. ' +
            'Issuance: the page that asks for the code mailed to the holder',
        ),
        303: c.noBody(),
        400: html(
          'The request cannot be trusted enough to redirect (client_id, redirect_uri): an error page',
        ),
        ...tooMany,
      },
      summary:
        'Authorization endpoint: sign in by presenting a credential (OpenID Connect, PKCE S256), or, with a request_uri from PAR, authorize an issuance',
      metadata: {
        responseHeaders: {
          200: z.object({ 'Set-Cookie': z.string().describe('Sign-in: binds the login to this browser') }),
          303: redirect('The redirect_uri with error, error_description and state'),
        },
      },
    },
    issuanceSignIn: {
      method: 'POST',
      path: '/oauth2/authorize/issuance',
      contentType: 'application/x-www-form-urlencoded',
      body: IssuanceSignInForm,
      responses: {
        303: c.noBody(),
        400: html('A wrong code (the page again, with the attempts left), or an error page'),
        ...tooMany,
      },
      summary:
        'The issuance sign-in page’s form: the right code sends the browser back to the wallet with a code',
      metadata: {
        responseHeaders: {
          303: redirect('The wallet’s redirect_uri with code, state and iss (or error and state)'),
        },
      },
    },
    authorizeComplete: {
      method: 'GET',
      path: '/oauth2/authorize/complete',
      query: OidcAuthorizeCompleteQuery,
      responses: {
        303: c.noBody(),
        400: html('The session is unknown, not yet answered, or not this browser’s: an error page'),
        ...tooMany,
      },
      summary:
        'Where the login page goes once the wallet answered: back to the client with a code or an error',
      metadata: {
        responseHeaders: { 303: redirect('The redirect_uri with code, state and iss (or error and state)') },
      },
    },
    loginScript: {
      method: 'GET',
      path: '/oauth2/login.js',
      responses: {
        200: c.otherResponse({ contentType: 'text/javascript', body: z.string() }),
        ...tooMany,
      },
      summary: 'The login page’s script: follows the session’s events and goes on when the wallet answered',
    },
    loginEvents: {
      method: 'GET',
      path: '/api/login/events',
      query: LoginEventsQuery,
      responses: {
        200: c.otherResponse({ contentType: 'text/event-stream', body: LoginStatusEvent }),
        404: OAuthErrorResponse,
        ...tooMany,
      },
      summary:
        'Server-sent events of a login’s presentation session: its status now and on every change, until final',
    },
    token: {
      method: 'POST',
      path: '/oauth2/token',
      contentType: 'application/x-www-form-urlencoded',
      headers: OidcTokenRequestHeaders,
      body: OidcTokenRequest,
      responses: {
        200: OidcTokenResponse,
        400: OAuthErrorResponse,
        401: OAuthErrorResponse,
        ...tooMany,
      },
      summary:
        'Token endpoint of every grant the metadata lists: authorization codes of sign-ins, integrator sessions and issuances, pre-authorized codes of offers, refresh tokens of issuances (credential refresh)',
      metadata: { security: 'token-client' },
    },
    userinfo: {
      method: 'GET',
      path: '/oauth2/userinfo',
      responses: { 200: UserinfoResponse, 401: OAuthErrorResponse, ...tooMany },
      summary: 'The claims of the sign-in the access token was issued for',
      metadata: { security: 'oidc-access' },
    },
    userinfoPost: {
      method: 'POST',
      path: '/oauth2/userinfo',
      body: c.noBody(),
      responses: { 200: UserinfoResponse, 401: OAuthErrorResponse, ...tooMany },
      summary: 'The claims of the sign-in the access token was issued for (POST, OpenID Connect Core 5.3.1)',
      metadata: { security: 'oidc-access' },
    },
  },
  { strictStatusCodes: true },
);
