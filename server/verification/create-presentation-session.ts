import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DcqlQuery } from '../../contract/oid4vp/dcql-query.js';
import {
  type ClientIdPrefix,
  isDcApiMode,
  type PresentationUriScheme,
  type ResponseMode,
} from '../../contract/verification/authorization-request.js';
import type { SessionApproval } from '../approvals/session-approval.js';
import { statementAudit } from '../audit/audit-log.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { validationError } from '../domain-errors.js';
import { qrCodeSvg } from '../http/qr-code.js';
import { fieldErrors } from '../http/zod-errors.js';
import { hostNames } from '../keys/certificate-names.js';
import { entityShape, insertRowSql } from '../persistence/entity-rows.js';
import { Params, type Sql } from '../persistence/sql.js';
import { cachedTenant } from '../tenants/tenant-cache.js';
import { hashSecret } from '../tenants/token-secret.js';
import { annexCSessionRequest } from './annex-c-session-request.js';
import { buildDcqlForConfiguration } from './build-dcql.js';
import { dcApiRequests } from './dc-api-request.js';
import { checkHaipSessionRequest, HAIP_1_0 } from './haip-session-rules.js';
import { isEncrypted, PresentationSession } from './presentation-session.entity.js';
import { createResponseEncryptionKey } from './response-encryption-key.js';
import { restrictToTrustAnchors } from './trust-anchors.js';
import type { VerifierServices } from './verifier-services.js';

export interface SessionRequest {
  credential_configuration_id?: string | undefined;
  dcql_query?: Record<string, unknown> | undefined;
  redirect_uri?: string | undefined;
  response_mode: ResponseMode;
  /** dc_api modes: the origins of the pages that call the Digital Credentials API. */
  expected_origins?: string[] | undefined;
  dc_api_request_type?: 'signed' | 'unsigned' | undefined;
  expires_in?: number | undefined;
  client_id_prefix?: ClientIdPrefix | undefined;
  restrict_to_trust_anchors?: boolean | undefined;
  uri_scheme?: PresentationUriScheme | undefined;
  /** OpenID4VP 1.0 `transaction_data` entries, base64url, as the request object carries them. */
  transaction_data?: string[] | undefined;
  /** The approval this session asks for (server/approvals). */
  approval?: { id: string; approval: SessionApproval } | undefined;
}

const random = (bytes: number) => randomBytes(bytes).toString('base64url');

export const requestObjectUrl = (verifierUrl: string, sessionId: string, sameDevice = false) =>
  `${verifierUrl}/oid4vp/auth-request/${sessionId}${sameDevice ? '?flow=same-device' : ''}`;

/**
 * The session's row and its audit event, written by one statement and no transaction (the ORM's unit
 * of work would take four): the session is new, so there is nothing to read or lock first.
 */
async function recordSession(em: EntityManager, sql: Sql, fields: PresentationSession, actor: string) {
  const audit = statementAudit([
    {
      tenantId: fields.tenantId,
      actor,
      action: 'verification.requested',
      subject: fields.id,
      details: {
        configuration: fields.credentialConfigurationId,
        response_mode: fields.responseMode,
        ...(fields.profile ? { profile: fields.profile } : {}),
        ...(fields.expectedOrigins ? { expected_origins: fields.expectedOrigins } : {}),
      },
    },
  ]);
  const params = new Params();
  await sql.query(
    `with session as (${insertRowSql(entityShape(em, PresentationSession), params, fields)} returning id),
     ${audit.ctes(params, 'session')}
     select 1`,
    params.values,
  );
  await audit.committed(em);
}

/**
 * Starts a presentation session: the DCQL query (from a configuration's type and claims, or as
 * given), a 256-bit nonce and state, and for an encrypted mode (.jwt) a key of its own to encrypt
 * to. A session with a redirect_uri also gets a binding secret (returned once, kept hashed): the
 * same-device link's answer redirects there with a response_code that is redeemed only with it.
 * The QR code is the cross-device link, whose answer never redirects. A dc_api session also gets
 * the requests its page hands to the Digital Credentials API (OpenID4VP, and ISO 18013-7 Annex C
 * when it asks for one mdoc); its links stay the fallback for browsers without that API, and
 * whichever answer comes first is the session's one answer.
 */
export async function createPresentationSession(
  em: EntityManager,
  s: VerifierServices,
  tenantId: string,
  actor: string,
  req: SessionRequest,
  /** `ephemeral` for sessions anonymous callers start: the TTL store, no row and no audit event. */
  keep: 'database' | 'ephemeral' = 'database',
) {
  let dcqlQuery = req.dcql_query;
  if (dcqlQuery) {
    // The contract takes any object with credentials; what the verifier will evaluate must be DCQL.
    const parsed = DcqlQuery.safeParse(dcqlQuery);
    if (!parsed.success) throw validationError(fieldErrors(parsed.error, 'dcql_query'));
  }
  if (req.credential_configuration_id) {
    const configuration = await findConfiguration(em, req.credential_configuration_id);
    if (!configuration)
      throw validationError([
        { field: 'credential_configuration_id', message: 'unknown credential configuration' },
      ]);
    dcqlQuery = buildDcqlForConfiguration(configuration, s.config.issuerUrl) as unknown as Record<
      string,
      unknown
    >;
  }
  if (req.restrict_to_trust_anchors && dcqlQuery)
    dcqlQuery = await restrictToTrustAnchors(em, tenantId, dcqlQuery);
  // The profile in force when the session starts is the session's for good (kept with it).
  const tenant = await cachedTenant(em, tenantId);
  const profile = tenant?.presentationProfile ?? null;
  if (profile === HAIP_1_0) await checkHaipSessionRequest(em, tenantId, req, dcqlQuery ?? {});
  // OID4VP section 5.9.3: x509_san_dns names a DNS name, and a verifier at an IP address has none.
  const [address] = hostNames(s.config.verifierUrl).ipAddresses;
  if (req.client_id_prefix === 'x509_san_dns' && address) {
    const message = `x509_san_dns needs a DNS name; VERIFIER_URL's host ${address} is an IP address: use x509_hash`;
    throw validationError([{ field: 'client_id_prefix', message }]);
  }
  const max = s.config.VERIFIER_SESSION_MAX_SECONDS;
  if (req.expires_in && req.expires_in > max)
    throw validationError([{ field: 'expires_in', message: `at most ${max}` }]);
  const expiresIn = req.expires_in ?? s.config.VERIFIER_SESSION_SECONDS;
  const dcApi = isDcApiMode(req.response_mode);
  if (dcApi && !req.expected_origins?.length)
    throw validationError([{ field: 'expected_origins', message: 'required with a dc_api response_mode' }]);
  const id = random(16);
  const encrypted = isEncrypted({ responseMode: req.response_mode });
  const sessionBinding = req.redirect_uri ? random(32) : undefined;
  const encKid = encrypted ? random(12) : null;
  const responseKey = encKid ? createResponseEncryptionKey(s.sealing, encKid) : undefined;
  const now = new Date();
  const fields: PresentationSession = {
    id,
    tenantId,
    status: 'pending',
    credentialConfigurationId: req.credential_configuration_id ?? null,
    dcqlQuery: dcqlQuery ?? {},
    responseMode: req.response_mode,
    nonce: random(32),
    state: random(32),
    redirectUri: req.redirect_uri ?? null,
    clientIdPrefix: req.client_id_prefix ?? 'x509_hash',
    profile,
    expectedOrigins: dcApi ? (req.expected_origins ?? null) : null,
    encKid,
    encKeySealed: responseKey?.sealed ?? null,
    encPublicJwk: responseKey?.publicJwk ?? null,
    annexCEncryptionInfo: null,
    annexCKeySealed: null,
    transactionData: req.transaction_data ?? null,
    approvalId: req.approval?.id ?? null,
    approval: req.approval?.approval ?? null,
    result: null,
    failureReason: null,
    failureDescription: null,
    responseCodeHash: null,
    responseCodeExpiresAt: null,
    sessionBindingHash: sessionBinding ? hashSecret(sessionBinding) : null,
    createdAt: now,
    expiresAt: new Date(now.getTime() + expiresIn * 1000),
    completedAt: null,
  };
  const annexC = dcApi ? annexCSessionRequest(s.sealing, fields) : undefined;
  if (annexC) Object.assign(fields, annexC.kept);
  if (keep === 'ephemeral') await s.ephemeral.save(fields);
  else await recordSession(em, s.sql, fields, actor);
  const { clientId } = await s.identity(fields.clientIdPrefix);
  // HAIP 1.0 registers `haip-vp` for its requests: the profile's default link scheme.
  const scheme =
    req.uri_scheme ?? tenant?.presentationUriScheme ?? (profile === HAIP_1_0 ? 'haip-vp' : 'openid4vp');
  const link = (sameDevice: boolean) =>
    `${scheme}://?client_id=${encodeURIComponent(clientId)}&request_uri=${encodeURIComponent(requestObjectUrl(s.config.verifierUrl, id, sameDevice))}`;
  const authorizationRequestUri = link(Boolean(req.redirect_uri));
  const crossDeviceUri = link(false);
  const svg = await qrCodeSvg(crossDeviceUri);
  return {
    session: fields,
    expiresIn,
    authorizationRequestUri,
    crossDeviceUri,
    sessionBinding,
    qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    ...(dcApi ? await dcApiRequests(em, s, fields, req.dc_api_request_type, annexC?.request) : {}),
  };
}
