import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { EncryptedCredentialMessage } from './credential-encryption.js';
import {
  AuthorizationServerMetadata,
  CredentialIssuerMetadata,
  JwtVcIssuerMetadata,
} from './credential-issuer-metadata.js';
import { CredentialOffer } from './credential-offer.js';
import {
  CredentialRequest,
  CredentialResponse,
  DeferredCredentialPending,
  DeferredCredentialRequest,
} from './credential-request.js';
import { NonceResponse } from './nonce-response.js';
import { NotificationRequest } from './notification-request.js';
import { OAuthErrorResponse } from './oauth-error-response.js';
import { TokenRequest, TokenResponse } from './token-request.js';

const c = initContract();
const oauthErrors = { 400: OAuthErrorResponse, 401: OAuthErrorResponse };

/** The wallet-facing OpenID4VCI 1.0 interface (pre-authorized code flow) and the issuer's metadata. */
export const oid4vciContract = c.router(
  {
    credentialIssuerMetadata: {
      method: 'GET',
      path: '/.well-known/openid-credential-issuer',
      responses: { 200: CredentialIssuerMetadata, 404: OAuthErrorResponse },
      summary:
        'Credential issuer metadata (JSON; signed as application/jwt when the Accept header asks for it)',
    },
    authorizationServerMetadata: {
      method: 'GET',
      path: '/.well-known/oauth-authorization-server',
      responses: { 200: AuthorizationServerMetadata, 404: OAuthErrorResponse },
      summary:
        'RFC 8414 metadata of the authorization server at this host (the same document as /.well-known/openid-configuration)',
    },
    jwtVcIssuerMetadata: {
      method: 'GET',
      path: '/.well-known/jwt-vc-issuer',
      responses: { 200: JwtVcIssuerMetadata, 404: OAuthErrorResponse },
      summary: 'SD-JWT VC issuer keys',
    },
    typeMetadata: {
      method: 'GET',
      path: '/credential-types/:id',
      pathParams: z.object({ id: z.string() }),
      responses: { 200: z.record(z.unknown()), 404: OAuthErrorResponse },
      summary: 'SD-JWT VC type metadata of a credential configuration (its vct URL)',
    },
    credentialOffer: {
      method: 'GET',
      path: '/oid4vci/v1/credential-offer/:offerId',
      pathParams: z.object({ offerId: z.string() }),
      responses: { 200: CredentialOffer, 404: OAuthErrorResponse },
      summary: 'A credential offer by reference (credential_offer_uri)',
    },
    token: {
      method: 'POST',
      path: '/oid4vci/v1/token',
      contentType: 'application/x-www-form-urlencoded',
      body: TokenRequest,
      responses: { 200: TokenResponse, ...oauthErrors },
      summary: 'Token endpoint: pre-authorized code with tx_code, and refresh tokens',
    },
    nonce: {
      method: 'POST',
      path: '/oid4vci/v1/nonce',
      body: c.noBody(),
      // Like every wallet route, limited per client address (RATE_LIMIT_ADDRESS_PER_MINUTE).
      responses: { 200: NonceResponse, 429: OAuthErrorResponse },
      summary: 'A fresh c_nonce for key proofs',
    },
    credential: {
      method: 'POST',
      path: '/oid4vci/v1/credential',
      body: CredentialRequest,
      responses: { 200: CredentialResponse, 202: DeferredCredentialPending, ...oauthErrors },
      summary:
        'Credential endpoint (bearer access token): one credential per key proof; the request may come encrypted (application/jwt), and then may ask for an encrypted response; 202 with a transaction_id when the issuance awaits approval',
      metadata: {
        security: 'wallet',
        otherBodies: { 'application/jwt': EncryptedCredentialMessage },
        otherResponses: { 200: { 'application/jwt': EncryptedCredentialMessage } },
      },
    },
    deferredCredential: {
      method: 'POST',
      path: '/oid4vci/v1/deferred_credential',
      body: DeferredCredentialRequest,
      responses: { 200: CredentialResponse, 202: DeferredCredentialPending, ...oauthErrors },
      summary:
        'Deferred credential endpoint (OID4VCI section 9): 202 while the issuance awaits approval, then the credentials once; encrypted like the credential endpoint',
      metadata: {
        security: 'wallet',
        otherBodies: { 'application/jwt': EncryptedCredentialMessage },
        otherResponses: {
          200: { 'application/jwt': EncryptedCredentialMessage },
          202: { 'application/jwt': EncryptedCredentialMessage },
        },
      },
    },
    notification: {
      method: 'POST',
      path: '/oid4vci/v1/notification',
      body: NotificationRequest,
      responses: { 204: c.noBody(), ...oauthErrors },
      summary: 'What the wallet did with the issued credentials',
      metadata: { security: 'wallet' },
    },
  },
  { strictStatusCodes: true },
);
