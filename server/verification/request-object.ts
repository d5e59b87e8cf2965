import type { EntityManager } from '@mikro-orm/postgresql';
import { vpFormatsSupported } from '../formats/credential-formats.js';
import { verifierInfoOf } from '../registration/registration-certificates.js';
import { isEncrypted, type PresentationSession } from './presentation-session.entity.js';
import type { VerifierServices } from './verifier-services.js';

/** Where the wallet posts; the same-device variant is answered with the redirect (HAIP 1.0). */
export const responseUri = (verifierUrl: string, sameDevice = false) =>
  `${verifierUrl}/oid4vp/auth-response${sameDevice ? '?flow=same-device' : ''}`;

/**
 * `client_metadata` of a session's requests: the formats, and for an encrypted session its own
 * ECDH-ES key with both content encryptions HAIP 1.0 makes verifiers list.
 */
export const clientMetadata = (session: PresentationSession) => ({
  vp_formats_supported: vpFormatsSupported(Boolean(session.profile)),
  ...(isEncrypted(session) && session.encPublicJwk
    ? {
        jwks: { keys: [session.encPublicJwk] },
        encrypted_response_enc_values_supported: ['A128GCM', 'A256GCM'],
      }
    : {}),
});

/**
 * The signed Request Object of a session (OID4VP 1.0 section 5, JAR): `typ oauth-authz-req+jwt`,
 * the verifier's certificate chain in `x5c` (trust anchor left out) behind the session's `x509_hash`
 * or `x509_san_dns` client identifier (OID4VP section 5.9.3), and for an encrypted session its own
 * ECDH-ES key in `client_metadata.jwks`. Fetched through the same-device link of a session with a
 * redirect_uri, its response_uri asks for the redirect. A dc_api session's link (the fallback for
 * browsers without the Digital Credentials API) asks for the matching direct_post mode. When the
 * tenant has imported a registration certificate, it rides along as `verifier_info` (section 5.1):
 * read when the wallet fetches the request, so an import or removal applies to pending sessions too.
 */
export async function signRequestObject(
  em: EntityManager,
  s: VerifierServices,
  session: PresentationSession,
  sameDevice = false,
): Promise<string> {
  const { clientId, x5c } = await s.identity(session.clientIdPrefix);
  const verifierInfo = await verifierInfoOf(em, session.tenantId);
  const now = Math.floor(Date.now() / 1000);
  return s.signer.signJwt(
    'verifier',
    { typ: 'oauth-authz-req+jwt', x5c },
    {
      iss: clientId,
      aud: 'https://self-issued.me/v2',
      client_id: clientId,
      response_type: 'vp_token',
      response_mode: isEncrypted(session) ? 'direct_post.jwt' : 'direct_post',
      response_uri: responseUri(s.config.verifierUrl, sameDevice && Boolean(session.redirectUri)),
      nonce: session.nonce,
      state: session.state,
      dcql_query: session.dcqlQuery,
      // OpenID4VP 1.0 §5.1: what the holder is asked to authorize, bound into its key binding.
      ...(session.transactionData ? { transaction_data: session.transactionData } : {}),
      client_metadata: clientMetadata(session),
      ...(verifierInfo ? { verifier_info: verifierInfo } : {}),
      iat: now,
      exp: Math.floor(session.expiresAt.getTime() / 1000),
    },
  );
}
