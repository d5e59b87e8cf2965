import { z } from 'zod';
import { DcApiRequest, DigitalCredentialRequest, ExpectedOrigin } from '../oid4vp/dc-api-request.js';
import { isIntegratorRedirectUri } from './redirect-uri.js';

/**
 * How the verifier identifies itself in the request (OID4VP 1.0 section 5.9.3): `x509_hash:<hash
 * of its leaf certificate>` or `x509_san_dns:<its host>`, a DNS name of that certificate.
 */
export const ClientIdPrefix = z.enum(['x509_hash', 'x509_san_dns']);
export type ClientIdPrefix = z.infer<typeof ClientIdPrefix>;

/**
 * Scheme of the request link a wallet opens: `openid4vp` (OID4VP 1.0) or `haip-vp` (HAIP 1.0
 * section on redirects), with the same `client_id` and `request_uri` parameters.
 */
export const PresentationUriScheme = z.enum(['openid4vp', 'haip-vp']);
export type PresentationUriScheme = z.infer<typeof PresentationUriScheme>;

/**
 * A verifier profile a tenant can put its presentations under: `haip-1.0` (OpenID4VC High Assurance
 * Interoperability Profile 1.0): encrypted responses (direct_post.jwt), SD-JWT VC with a KB-JWT,
 * issuers trusted only by x5c chains to the tenant's trust anchors, ES256, x509_hash requests.
 */
export const PresentationProfile = z.enum(['haip-1.0']);
export type PresentationProfile = z.infer<typeof PresentationProfile>;

/**
 * How the wallet answers: to the response endpoint (`direct_post`, `direct_post.jwt`: the wallet is
 * invoked by a link or QR code), or through the integrator's page that called the W3C Digital
 * Credentials API (`dc_api`, `dc_api.jwt`: OID4VP 1.0 Appendix A). The `.jwt` modes are encrypted.
 */
export const ResponseMode = z.enum(['direct_post', 'direct_post.jwt', 'dc_api', 'dc_api.jwt']);
export type ResponseMode = z.infer<typeof ResponseMode>;
export const isDcApiMode = (mode: string) => mode === 'dc_api' || mode === 'dc_api.jwt';

/**
 * What the integrator asks a wallet to present: a credential configuration of this service (the
 * verifier builds the DCQL query) or a full DCQL query; where to send the user afterwards; how the
 * wallet answers (encrypted by default); how long the session lives.
 */
export const AuthorizationRequestCreate = z
  .object({
    credential_configuration_id: z.string().min(1).max(200).optional(),
    dcql_query: z
      .object({ credentials: z.array(z.record(z.unknown())).min(1) })
      .passthrough()
      .optional()
      .describe('OID4VP 1.0 section 6 DCQL query; instead of credential_configuration_id'),
    redirect_uri: z
      .string()
      .max(2000)
      .refine(isIntegratorRedirectUri, {
        message:
          'https, http on localhost or 127.0.0.1, or an app scheme such as com.example.app:, without fragment',
      })
      .optional()
      .describe(
        'Where the wallet sends the user, with code and state: https, http only on localhost/127.0.0.1, or a private-use app scheme (RFC 8252, e.g. com.example.app:/done)',
      ),
    response_mode: ResponseMode.default('direct_post.jwt').describe(
      'direct_post(.jwt): the wallet opens a link or QR code; dc_api(.jwt): the integrator’s page calls the W3C Digital Credentials API with dc_api_request (HAIP 1.0: dc_api.jwt)',
    ),
    expected_origins: z
      .array(ExpectedOrigin)
      .min(1)
      .max(10)
      .optional()
      .describe(
        'dc_api modes (required): the origins of the pages that call the Digital Credentials API; a signed request names them (OID4VP 1.0 Appendix A.2), and an answer is accepted only from one of them, addressed to origin:<it>',
      ),
    dc_api_request_type: z
      .enum(['signed', 'unsigned'])
      .optional()
      .describe(
        'dc_api modes: signed (default; a Request Object signed with the verifier certificate, x509 client_id) or unsigned (plain parameters, no client_id)',
      ),
    expires_in: z.number().int().min(30).optional().describe('Seconds; at most the configured maximum'),
    restrict_to_trust_anchors: z
      .boolean()
      .optional()
      .describe(
        'true: every credential query without trusted_authorities gets one of type aki listing the key identifiers of the tenant’s trust anchors (OID4VP 1.0 section 6.1.1.1), so wallets offer, and the verifier accepts, only credentials whose x5c chain was issued under them',
      ),
    client_id_prefix: ClientIdPrefix.optional().describe(
      'Client identifier prefix of the request (OID4VP 5.9.3): x509_hash (default) or x509_san_dns, naming the verifier host (refused when VERIFIER_URL’s host is an IP address, which is no DNS name)',
    ),
    uri_scheme: PresentationUriScheme.optional().describe(
      'Scheme of authorization_request_uri: openid4vp or haip-vp; default: the tenant’s presentation_uri_scheme, else openid4vp',
    ),
  })
  .strict()
  .refine((r) => Boolean(r.credential_configuration_id) !== Boolean(r.dcql_query), {
    message: 'give either credential_configuration_id or dcql_query',
    path: ['credential_configuration_id'],
  })
  .superRefine((r, ctx) => {
    const issue = (path: string, message: string) =>
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message });
    if (isDcApiMode(r.response_mode)) {
      // The verifier checks the answer's origin against them even when the request is unsigned.
      if (!r.expected_origins) issue('expected_origins', 'required with a dc_api response_mode');
    } else {
      if (r.expected_origins) issue('expected_origins', 'only with a dc_api response_mode');
      if (r.dc_api_request_type) issue('dc_api_request_type', 'only with a dc_api response_mode');
    }
  });

export const AuthorizationRequestCreated = z.object({
  session_id: z.string().describe('Poll with it; the `state` of the SSE subscription'),
  request_uri: z.string().describe('openid-vp://verifier/request/<session_id>'),
  expires_in: z.number().int(),
  authorization_request_uri: z
    .string()
    .describe(
      'openid4vp:// (or haip-vp://) ?client_id=…&request_uri=…: the link a wallet on the same device opens; with a redirect_uri, the wallet is sent there with a response_code. For dc_api sessions the fallback where the browser has no Digital Credentials API (answered over direct_post(.jwt); one answer wins)',
    ),
  cross_device_uri: z
    .string()
    .describe(
      'The same request for a wallet on another device (the QR code): its answer is never redirected, learn the result by polling or SSE',
    ),
  qr_code: z.string().describe('cross_device_uri as an SVG QR code (data: URI)'),
  dc_api_request: DcApiRequest.optional().describe(
    'dc_api sessions: the OpenID4VP request; the page passes it as navigator.credentials.get({ digital: { requests: [dc_api_request] } }), or passes dc_api_requests, which begin with it',
  ),
  dc_api_requests: z
    .array(DigitalCredentialRequest)
    .optional()
    .describe(
      'dc_api sessions: every request of the session for one call, navigator.credentials.get({ digital: { requests: dc_api_requests } }): first dc_api_request, then, when the session asks for exactly one mso_mdoc credential whose claims name [namespace, element] (no claim_sets, credential_sets or multiple) and its tenant is not under the haip-1.0 profile, an ISO/IEC 18013-7 Annex C request (org-iso-mdoc) for it',
    ),
  dc_api_response_uri: z
    .string()
    .optional()
    .describe(
      'dc_api sessions: the page posts { origin, protocol, data } here (protocol and data: the DigitalCredential’s), without the integrator token; the answer is { redirect_uri } when the session has one',
    ),
  session_binding: z
    .string()
    .optional()
    .describe(
      'With a redirect_uri: keep it in the browser session that started the request; the response_code the redirect brings is redeemed at /oauth2/token only together with it (HAIP 1.0 same-device flow), and only that releases the result of a same-device answer (until then the session is awaiting_redirect)',
    ),
});

/** Which trust path accepted the issuer of the presented credential. */
export const IssuerTrust = z.object({
  method: z
    .enum(['x509', 'trusted_list', 'jwks', 'jwt-vc-issuer-metadata'])
    .describe(
      'x509: its x5c chain to a trust anchor of the tenant; trusted_list: its x5c chain to a certificate of an entity in one of the tenant’s trust sources; jwks: configured keys (or this service’s own issuer); jwt-vc-issuer-metadata: keys from the issuer’s metadata',
    ),
  anchor: z
    .string()
    .optional()
    .describe('x509: SHA-256 (hex) of the trust anchor, as the trust-anchor API names it'),
  anchor_subject: z.string().optional().describe('x509: the trust anchor’s subject'),
  source: z.string().uuid().optional().describe('trusted_list: the id of the trust source that vouched'),
  entity: z.string().optional().describe('trusted_list: the listed entity (its name in the list)'),
  service_type: z
    .string()
    .optional()
    .describe('trusted_list: the service type it was trusted as, e.g. pid_provider'),
});

/** One credential of a verified presentation, and the trust path that accepted its issuer. */
export const PresentedCredential = z.object({
  id: z.string().describe('The DCQL credential query it answered'),
  format: z.string().describe('dc+sd-jwt, mso_mdoc or jwt_vc_json'),
  credential_type: z
    .string()
    .nullable()
    .describe('Its vct (SD-JWT VC), doctype (mdoc) or most specific type (W3C)'),
  trust: IssuerTrust,
});

/**
 * Where a presentation session stands. `awaiting_redirect`: the wallet answered through the
 * same-device link of a session with a redirect_uri and the answer was verified, but the result is
 * held back until the response code of the redirect is redeemed with the session_binding (HAIP 1.0:
 * a presentation whose redirect is not followed back to the session that asked is rejected); never
 * redeemed in time, the session fails with `redirect_not_followed`.
 */
export const PresentationSessionStatus = z
  .enum(['pending', 'awaiting_redirect', 'verified', 'failed', 'expired'])
  .describe(
    'pending: no answer yet; awaiting_redirect: a same-device answer was verified, and its result is released once the redirect’s response code is redeemed with the session_binding; verified; failed (see reason); expired: no answer in time',
  );

export const VerificationStatus = z.object({
  session_id: z.string(),
  status: PresentationSessionStatus,
  verified: z.boolean(),
  credential_type: z
    .string()
    .nullable()
    .describe('Configuration id of the request; once verified, of (or the vct of) the presented credential'),
  claims: z
    .record(z.unknown())
    .optional()
    .describe('Disclosed claims, once verified (never while awaiting_redirect)'),
  reason: z
    .string()
    .optional()
    .describe(
      'Machine-readable reason, once failed; redirect_not_followed: a same-device answer whose response code was never redeemed with the session_binding',
    ),
  reason_description: z
    .string()
    .optional()
    .describe(
      'Once failed: what failed, in words (e.g. for untrusted_issuer, that the issuer’s keys could not be resolved and why)',
    ),
  trust: IssuerTrust.optional().describe('How the issuer was trusted, once verified'),
  profile: PresentationProfile.optional().describe(
    'The verifier profile the session runs under (the tenant’s presentation_profile when it was created)',
  ),
  credentials: z
    .array(PresentedCredential)
    .optional()
    .describe('Once verified: each presented credential and how its issuer was trusted'),
  approval_id: z
    .string()
    .optional()
    .describe('When the session is an approval’s: read it at /approvals/{id}'),
});
