import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { DcqlQuery } from '../../contract/oid4vp/dcql-query.js';
import { canonicalJson } from '../audit/canonical-json.js';
import { invalidRequest } from '../oid4vci/oauth-error.js';
import { type PresentationSession, statusOf } from '../verification/presentation-session.entity.js';
import { type Outcome, recordOutcome, sha256 } from '../verification/record-presentation-outcome.js';
import { sessionEvent } from '../verification/session-result.js';
import { trustAnchorCertificates } from '../verification/trust-anchors.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { type AuthorizationResponseForm, readAuthorizationResponse } from './read-authorization-response.js';
import { PresentationError, verifyVpToken } from './verification/index.js';

/**
 * The response endpoint's work. Responses that cannot belong to a live session (garbage, unknown
 * state, a finished or expired session, a vp_token seen before) are refused and change nothing. A
 * well-formed response is verified once: the session becomes verified or failed for good, with the
 * claims or a reason, and watchers are told. A verified session with a redirect_uri answered through
 * the same-device link gets a fresh single-use response_code in the redirect (OID4VP 1.0 section
 * 8.2, HAIP 1.0 redirects); an answer from another device (the QR code) is never redirected, since
 * the browser that started the request is not there. A wallet that declines (OID4VP section 8.5)
 * fails the session with its error.
 */
export async function completePresentation(
  em: EntityManager,
  s: VerifierServices,
  form: AuthorizationResponseForm,
  sameDevice = false,
) {
  const { session, ephemeral, vpToken, encrypted, walletError } = await readAuthorizationResponse(
    em,
    s,
    form,
  );
  const status = statusOf(session);
  if (status === 'expired') throw invalidRequest('the session has expired');
  if (status !== 'pending') throw invalidRequest('the session already has its response');
  // OID4VP 1.0 section 8.3.1: a wallet that cannot encrypt may send its error response in the
  // clear, so a direct_post.jwt session takes a plain error; only a vp_token must come encrypted.
  if (walletError) {
    const outcome = { reason: `wallet_${walletError}`, message: 'the wallet declined' };
    const final = await recordOutcome(em, s, { session, ephemeral, outcome });
    await s.events.publish(sessionEvent(final, final.status)).catch(() => undefined);
    return {};
  }
  if (session.responseMode === 'direct_post.jwt' && !encrypted)
    throw invalidRequest('this session requires an encrypted response (direct_post.jwt)');
  if (vpToken === null || typeof vpToken !== 'object' || Array.isArray(vpToken))
    throw invalidRequest('vp_token must be a JSON object');
  // A vp_token seen before is refused when the outcome is recorded (its conditional insert), and
  // the rollback leaves the session pending: no read ahead of it on every answer.
  const tokenHash = sha256(canonicalJson(vpToken));

  const outcome = await verify(em, s, session, vpToken);
  const redirects = sameDevice && session.redirectUri !== null;
  const code = 'claims' in outcome && redirects ? randomBytes(32).toString('base64url') : undefined;
  const final = await recordOutcome(em, s, { session, ephemeral, outcome, tokenHash, code });
  await s.events.publish(sessionEvent(final, final.status)).catch(() => undefined);
  if ('reason' in outcome)
    throw invalidRequest(`presentation rejected (${outcome.reason}): ${outcome.message}`);
  if (!code || !final.redirectUri) return {};
  const target = new URL(final.redirectUri);
  // SPEC 2.5 names the parameters `code` and `state`; the code plays OID4VP 8.2's response_code.
  target.searchParams.set('code', code);
  target.searchParams.set('state', final.id);
  return { redirect_uri: target.toString() };
}

/**
 * Verifies the token against the session's query. A query that is not valid DCQL (stored before
 * queries were checked at creation) fails the session with `invalid_query` instead of leaving it
 * pending behind a 500.
 */
async function verify(
  em: EntityManager,
  s: VerifierServices,
  session: PresentationSession,
  vpToken: object,
): Promise<Outcome> {
  const query = DcqlQuery.safeParse(session.dcqlQuery);
  if (!query.success)
    return { reason: 'invalid_query', message: 'the session’s dcql_query is not valid DCQL' };
  const { clientId } = await s.identity(session.clientIdPrefix);
  try {
    const verified = await verifyVpToken(vpToken, query.data, {
      nonce: session.nonce,
      clientId,
      trustedIssuers: s.trustedIssuers(em, session.tenantId),
      trustAnchors: await trustAnchorCertificates(em, session.tenantId),
      fetchStatusList: s.fetchStatusList,
      profile: session.profile ?? undefined,
    });
    const [first] = verified.credentials;
    return {
      claims: first?.claims ?? {},
      type: session.credentialConfigurationId ?? first?.vct ?? null,
      ...(first ? { trust: first.trust } : {}),
      credentials: verified.credentials.map((c) => ({
        id: c.queryId,
        format: c.format,
        type: c.vct ?? c.type?.at(-1) ?? null,
        trust: c.trust,
      })),
    };
  } catch (e) {
    if (!(e instanceof PresentationError)) throw e;
    return { reason: e.code, message: e.message };
  }
}
