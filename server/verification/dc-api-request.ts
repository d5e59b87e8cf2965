import type { EntityManager } from '@mikro-orm/postgresql';
import type {
  AnnexCDcApiRequest,
  DcApiRequest,
  DigitalCredentialRequest,
} from '../../contract/oid4vp/dc-api-request.js';
import { verifierInfoOf } from '../registration/registration-certificates.js';
import { isEncrypted, type PresentationSession } from './presentation-session.entity.js';
import { clientMetadata } from './request-object.js';
import type { VerifierServices } from './verifier-services.js';

export const DC_API_RESPONSE_PATH = '/oid4vp/dc-api-response';

/** Where the page that called the Digital Credentials API posts the wallet's answer. */
export const dcApiResponsePath = (sessionId: string) =>
  `${DC_API_RESPONSE_PATH}/${encodeURIComponent(sessionId)}`;

/**
 * The request a page hands to `navigator.credentials.get({ digital: { requests: [it] } })` (OID4VP
 * 1.0 Appendix A). Only the parameters A.2 lists: no state, no response_uri, no redirect_uri (the
 * answer comes back to the page). Unsigned (A.3.1): the parameters themselves and no client_id, the
 * wallet then binds its answer to the origin the browser reports. Signed (A.3.2.1, HAIP 1.0): a
 * Request Object under the verifier's x509 client_id and certificate, naming `expected_origins` so
 * a wallet refuses it when another site replays it. The tenant's registration certificate goes in
 * the signed one only, as `verifier_info`: a wallet binds it to the verifier by the certificate that
 * signed the request (EUDI wallets: x509 client identifiers), which an unsigned request has not.
 */
export async function dcApiRequest(
  em: EntityManager,
  s: VerifierServices,
  session: PresentationSession,
  type: 'signed' | 'unsigned' = 'signed',
): Promise<DcApiRequest> {
  const parameters = {
    response_type: 'vp_token',
    response_mode: isEncrypted(session) ? 'dc_api.jwt' : 'dc_api',
    nonce: session.nonce,
    dcql_query: session.dcqlQuery,
    ...(session.transactionData ? { transaction_data: session.transactionData } : {}),
    client_metadata: clientMetadata(session),
  };
  if (type === 'unsigned') return { protocol: 'openid4vp-v1-unsigned', data: parameters };
  const { clientId, x5c } = await s.identity(session.clientIdPrefix);
  const verifierInfo = await verifierInfoOf(em, session.tenantId);
  const request = await s.signer.signJwt(
    'verifier',
    { typ: 'oauth-authz-req+jwt', x5c },
    {
      iss: clientId,
      aud: 'https://self-issued.me/v2',
      client_id: clientId,
      expected_origins: session.expectedOrigins ?? [],
      ...parameters,
      ...(verifierInfo ? { verifier_info: verifierInfo } : {}),
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(session.expiresAt.getTime() / 1000),
    },
  );
  return { protocol: 'openid4vp-v1-signed', data: { request } };
}

/**
 * The requests of a dc_api session: the OpenID4VP one alone (`dcApiRequest`, as integrators have
 * always had it) and every one for a single navigator.credentials.get call, OpenID4VP first.
 */
export async function dcApiRequests(
  em: EntityManager,
  s: VerifierServices,
  session: PresentationSession,
  type: 'signed' | 'unsigned' | undefined,
  annexC: AnnexCDcApiRequest | undefined,
) {
  const openid4vp = await dcApiRequest(em, s, session, type);
  return {
    dcApiRequest: openid4vp,
    dcApiRequests: [openid4vp, ...(annexC ? [annexC] : [])] as DigitalCredentialRequest[],
    dcApiResponseUri: `${s.config.verifierUrl}${dcApiResponsePath(session.id)}`,
  };
}
