import type { Request, Response } from 'express';
import { AUTHORIZATION_CODE_GRANT } from '../../../contract/issuance/issuance-request.js';
import { S256_CODE_CHALLENGE } from '../../../contract/oidc/pkce.js';
import type { Config } from '../../config.js';
import type { TtlStore } from '../../ephemeral/ttl-store.js';
import { findOpenOffer } from '../../issuance/find-open-offer.js';
import type { OfferCodes } from '../../issuance/offer-codes.js';
import { invalidDpopProof } from '../dpop/dpop-errors.js';
import { formParameter } from '../form-parameter.js';
import { invalidRequest } from '../oauth-error.js';
import { walletProofs } from '../wallet-proofs.js';
import {
  keys,
  newSecret,
  type PendingAuthorization,
  REQUEST_URI_PREFIX,
  REQUEST_URI_TTL_SECONDS,
} from './pending-authorization.js';
import { checkRedirectUri } from './redirect-uri.js';
import { invalidScope, requestedConfigurations } from './requested-configurations.js';

/**
 * The open authorization code offer behind an issuer_state, when the scope asked for its
 * configuration: the authorization covers what the offer offers, the other configurations asked for
 * are not granted (RFC 6749 section 3.3; the token response's `scope` says what was).
 */
async function offerOf(req: Request, codes: OfferCodes, issuerState: string, requested: string[]) {
  const offerId = codes.readIssuerState(issuerState);
  const issuance = offerId ? await findOpenOffer(req.em, offerId) : null;
  if (!issuance || issuance.grantType !== AUTHORIZATION_CODE_GRANT || !issuance.email)
    throw invalidRequest('issuer_state is unknown, or its offer was used or has expired');
  if (!requested.includes(issuance.configurationId))
    throw invalidScope(`the offer is for ${issuance.configurationId}: ask for its scope`);
  return issuance;
}

/**
 * RFC 9126 section 2: the wallet pushes its authorization request for an issuance and gets a
 * request_uri for /oauth2/authorize. HAIP 1.0: PKCE with S256 only, `scope` naming credential
 * configurations (requested-configurations.ts), the wallet attestation as client authentication
 * when sent (required with WALLET_ATTESTATION_REQUIRED). With `issuer_state` the request is for that
 * offer (issuer-initiated); without, for the configurations its scope names, to be issued to
 * whichever SCIM user the holder signs in as, with the one that user's tenant issues
 * (wallet-initiated, OID4VCI 1.0 section 5.1.2). Everything is checked before anything is stored or
 * spent.
 */
export async function pushAuthorizationRequest(
  req: Request,
  res: Response,
  config: Config,
  codes: OfferCodes,
  store: TtlStore,
) {
  const body = (req.body ?? {}) as Record<string, unknown>;
  const proofs = await walletProofs(req, config, 'par');
  const { dpop } = proofs;
  if (body.request_uri !== undefined) throw invalidRequest('request_uri is not allowed at PAR (RFC 9126)');
  if (formParameter(body, 'response_type', true) !== 'code')
    throw invalidRequest('response_type must be code');
  const clientId = formParameter(body, 'client_id', true);
  const redirectUri = checkRedirectUri(formParameter(body, 'redirect_uri', true));
  const state = formParameter(body, 'state');
  const challenge = formParameter(body, 'code_challenge');
  const method = formParameter(body, 'code_challenge_method');
  if (!challenge)
    throw invalidRequest('PKCE is required: send code_challenge with code_challenge_method S256');
  if (method !== 'S256') throw invalidRequest('code_challenge_method must be S256 (plain is not accepted)');
  if (!S256_CODE_CHALLENGE.test(challenge)) throw invalidRequest('code_challenge is not a base64url SHA-256');
  const dpopJkt = formParameter(body, 'dpop_jkt');
  if (dpopJkt && dpop && dpopJkt !== dpop.jkt)
    throw invalidDpopProof('dpop_jkt is not the thumbprint of the DPoP proof key');
  const requested = await requestedConfigurations(
    req.em,
    formParameter(body, 'scope'),
    body.authorization_details,
  );
  const issuerState = formParameter(body, 'issuer_state');
  const offer = issuerState ? await offerOf(req, codes, issuerState, requested) : undefined;
  await proofs.spend(req.em);
  const pending: PendingAuthorization = {
    // Without issuer_state the request is wallet-initiated: the holder is found at sign-in.
    ...(offer
      ? { issuanceId: offer.id, tenantId: offer.tenantId, configurationId: offer.configurationId }
      : { configurationId: requested[0] as string, requested }),
    clientId,
    redirectUri,
    ...(state ? { state } : {}),
    codeChallenge: challenge,
    ...(dpop || dpopJkt ? { dpopJkt: dpop?.jkt ?? dpopJkt } : {}),
  };
  const id = newSecret();
  await store.set(keys.pushed(id), JSON.stringify(pending), REQUEST_URI_TTL_SECONDS);
  proofs.sendNextNonce(res);
  return { request_uri: `${REQUEST_URI_PREFIX}${id}`, expires_in: REQUEST_URI_TTL_SECONDS };
}
