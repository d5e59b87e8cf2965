import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { JWK } from 'jose';
import { DcqlQuery } from '../../contract/oid4vp/dcql-query.js';
import { decideApprovedIssuance } from '../approvals/decide-approved-issuance.js';
import { settleApproval } from '../approvals/settle-approval.js';
import { canonicalJson } from '../audit/canonical-json.js';
import { invalidRequest } from '../oid4vci/oauth-error.js';
import { hashSecret } from '../tenants/token-secret.js';
import {
  isEncrypted,
  type PresentationSession,
  statusOf,
} from '../verification/presentation-session.entity.js';
import { type Outcome, recordOutcome } from '../verification/record-presentation-outcome.js';
import { sessionEvent } from '../verification/session-result.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import type { ReadResponse } from './read-authorization-response.js';
import { PresentationError, verifyVpToken } from './verification/index.js';
import type { PresentationTransaction } from './verification/types.js';

export interface Settlement {
  /** The audience the holder binding must name: the client_id, or `origin:<origin>` over the DC API. */
  audience: string;
  /** A verified answer redirects to the session's redirect_uri with a fresh response_code. */
  redirects: boolean;
  /**
   * Where the answer came: the response_uri the request named, or the DC API page's origin (with the
   * EncryptionInfo of an ISO 18013-7 Annex C answer).
   */
  transaction: Pick<PresentationTransaction, 'responseUri' | 'origin' | 'annexC'>;
}

/**
 * Gives a session the one answer it gets, however it arrived (response endpoint or DC API page).
 * Responses that cannot belong to a live session (a finished or expired session, a vp_token seen
 * before, a plain vp_token where the session asked for encryption) are refused and change nothing.
 * A well-formed response is verified once: the session becomes verified or failed for good, with
 * the claims or a reason, and watchers are told. A redirecting verified answer gets a single-use
 * response_code (OID4VP 1.0 section 8.2, HAIP 1.0 redirects) and is only `awaiting_redirect`: its
 * result is released when the code comes back to the session that asked (release-awaited-result.ts,
 * OID4VP 1.0 section 14.3), or the session fails at the code's deadline. A wallet that declines
 * (section 8.5) fails the session with its error.
 */
export async function settlePresentation(
  em: EntityManager,
  s: VerifierServices,
  read: ReadResponse,
  how: Settlement,
): Promise<{ redirect_uri?: string }> {
  const { session, ephemeral, vpToken, encrypted, walletError } = read;
  const status = statusOf(session);
  if (status === 'expired') throw invalidRequest('the session has expired');
  if (status !== 'pending') throw invalidRequest('the session already has its response');
  // OID4VP 1.0 section 8.3.1: a wallet that cannot encrypt may send its error response in the
  // clear, so an encrypted session takes a plain error; only a vp_token must come encrypted.
  if (walletError) {
    const outcome = { reason: `wallet_${walletError}`, message: 'the wallet declined' };
    const final = await recordOutcome(em, s, { session, ephemeral, outcome });
    await s.events.publish(sessionEvent(final, final.status)).catch(() => undefined);
    return {};
  }
  if (isEncrypted(session) && !encrypted)
    throw invalidRequest(`this session requires an encrypted response (${session.responseMode})`);
  if (vpToken === null || typeof vpToken !== 'object' || Array.isArray(vpToken))
    throw invalidRequest('vp_token must be a JSON object');
  // A vp_token seen before is refused when the outcome is recorded (its conditional insert), and
  // the rollback leaves the session pending: no read ahead of it on every answer.
  const tokenHash = hashSecret(canonicalJson(vpToken));

  const outcome = await settleApproval(
    s,
    session,
    vpToken as Record<string, unknown>,
    await verify(em, s, session, vpToken, how),
  );
  const redirects = how.redirects && session.redirectUri !== null;
  const code = 'claims' in outcome && redirects ? randomBytes(32).toString('base64url') : undefined;
  const final = await recordOutcome(em, s, { session, ephemeral, outcome, tokenHash, code });
  // An approval of an issuance decides it before anyone watching the approval hears it settled.
  if (final.status === 'verified' && 'claims' in outcome)
    await decideApprovedIssuance(em, final, outcome.claims);
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
 * Verifies the token against the session's query, bound to `audience`. A query that is not valid
 * DCQL (stored before queries were checked at creation) fails the session with `invalid_query`
 * instead of leaving it pending behind a 500.
 */
async function verify(
  em: EntityManager,
  s: VerifierServices,
  session: PresentationSession,
  vpToken: object,
  how: Settlement,
): Promise<Outcome> {
  const query = DcqlQuery.safeParse(session.dcqlQuery);
  if (!query.success)
    return { reason: 'invalid_query', message: 'the session’s dcql_query is not valid DCQL' };
  try {
    const verified = await verifyVpToken(vpToken, query.data, {
      nonce: session.nonce,
      clientId: how.audience,
      transaction: {
        ...how.transaction,
        ...(isEncrypted(session) && session.encPublicJwk
          ? { responseEncryptionKey: session.encPublicJwk as JWK }
          : {}),
      },
      fetchStatusListCwt: s.fetchStatusListCwt,
      trustedIssuers: s.trustedIssuers(em, session.tenantId),
      trust: await s.trust.of(em, session.tenantId),
      fetchStatusList: s.fetchStatusList,
      profile: session.profile ?? undefined,
      ...(session.transactionData ? { transactionData: session.transactionData } : {}),
    });
    const [first] = verified.credentials;
    return {
      claims: first?.claims ?? {},
      type: session.credentialConfigurationId ?? first?.vct ?? null,
      ...(first ? { trust: first.trust } : {}),
      ...(first?.statusReference ? { statusReference: first.statusReference } : {}),
      credentials: verified.credentials.map((c) => ({
        id: c.queryId,
        format: c.format,
        type: c.vct ?? c.doctype ?? c.type?.at(-1) ?? null,
        trust: c.trust,
      })),
    };
  } catch (e) {
    if (!(e instanceof PresentationError)) throw e;
    return { reason: e.code, message: e.message };
  }
}
