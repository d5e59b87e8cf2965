import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { DigitalCredentialRequest } from '../../contract/oid4vp/dc-api-request.js';
import { hashSecret, secretMatches } from '../tenants/token-secret.js';
import { createPresentationSession, type SessionRequest } from './create-presentation-session.js';
import {
  failureReasonOf,
  type PresentationSession,
  REDIRECT_NOT_FOLLOWED,
  type SessionStatus,
} from './presentation-session.entity.js';
import type { VerifierServices } from './verifier-services.js';

/**
 * A presentation a sign-in page asks for (the OpenID provider's login, the issuer's holder sign-in):
 * one anonymous session the person answers from another device (QR code), with a wallet on this
 * device (same-device link, whose answer redirects back with a response_code) or with the browser's
 * own wallet (W3C Digital Credentials API, HAIP 1.0 dc_api.jwt with the page's origin as the one
 * expected origin). It lives in the TTL store until a verified answer makes it worth a row, and is
 * bound to the browser that opened the page by a secret its cookie holds (only the hash is kept).
 */
export interface BrowserPresentation {
  sessionId: string;
  expiresIn: number;
  qrCode: string;
  /** The same-device link: the wallet's answer redirects to `completeUrl` with a response_code. */
  authorizationRequestUri: string;
  /** The QR code's content, for a wallet on another device: never redirected. */
  crossDeviceUri: string;
  /** The requests for one navigator.credentials.get call (OpenID4VP, and Annex C for one mdoc). */
  dcApiRequests: DigitalCredentialRequest[];
  /** Goes into a cookie of the browser that opened the page; `browserBindingHash` is what is kept. */
  browserSecret: string;
  browserBindingHash: string;
}

export async function startBrowserPresentation(
  em: EntityManager,
  verifier: VerifierServices,
  tenantId: string,
  actor: string,
  what: Pick<SessionRequest, 'credential_configuration_id' | 'dcql_query' | 'approval' | 'transaction_data'>,
  page: { origin: string; completeUrl: string },
): Promise<BrowserPresentation> {
  const created = await createPresentationSession(
    em,
    verifier,
    tenantId,
    actor,
    {
      ...what,
      // The links and QR code ask for direct_post.jwt; the browser's own wallet answers dc_api.jwt.
      response_mode: 'dc_api.jwt',
      expected_origins: [page.origin],
      // HAIP 1.0 same-device flow: the wallet sends the browser back with a response_code, which
      // completes the sign-in only together with this browser's cookie.
      redirect_uri: page.completeUrl,
    },
    'ephemeral',
  );
  const { dcApiRequests } = created;
  if (!dcApiRequests) throw new Error('a dc_api.jwt session comes with its DC API requests');
  const browserSecret = randomBytes(32).toString('base64url');
  return {
    sessionId: created.session.id,
    expiresIn: created.expiresIn,
    qrCode: created.qrCode,
    authorizationRequestUri: created.authorizationRequestUri,
    crossDeviceUri: created.crossDeviceUri,
    dcApiRequests,
    browserSecret,
    browserBindingHash: hashSecret(browserSecret),
  };
}

/** Whether the cookie's secret is the one of the browser that opened the page (constant time). */
export const isSameBrowser = (secret: string | undefined, bindingHash: string) =>
  Boolean(secret) && secretMatches(secret as string, bindingHash);

/** Why a session that has no verified answer ends its sign-in, as the person may be told. */
export function deniedDescription(session: PresentationSession, status: SessionStatus): string {
  if (status === 'expired') return 'the sign-in request expired';
  return failureReasonOf(session) === REDIRECT_NOT_FOLLOWED
    ? 'the wallet did not send the browser back in time'
    : 'the presented credential was not accepted';
}

/**
 * HAIP 1.0 same-device flow: a wallet that answered through the page's same-device link got a
 * response_code in its redirect back to this browser; the sign-in then completes only with it (and
 * the cookie), so a presentation made for a relayed link cannot be completed by the browser that
 * relayed it. An answer from another device (the QR code) got no code and completes with the cookie.
 * What is wrong, or undefined when nothing is.
 */
export function responseCodeProblem(
  session: Pick<PresentationSession, 'responseCodeHash' | 'responseCodeExpiresAt'>,
  responseCode: string | undefined,
): string | undefined {
  if (!session.responseCodeHash)
    return responseCode === undefined ? undefined : 'no response_code was issued for this sign-in';
  if (!responseCode)
    return 'your wallet answered on this device: continue with the page it opened (it carries a response_code)';
  const fresh = session.responseCodeExpiresAt && new Date(session.responseCodeExpiresAt) > new Date();
  if (!secretMatches(responseCode, session.responseCodeHash) || !fresh) return WRONG_RESPONSE_CODE;
  return undefined;
}

export const WRONG_RESPONSE_CODE = 'the response_code is not this sign-in’s, or has expired';
