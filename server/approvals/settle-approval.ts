import type { PresentationSession } from '../verification/presentation-session.entity.js';
import type { Outcome } from '../verification/record-presentation-outcome.js';
import type { VerifierServices } from '../verification/verifier-services.js';
import { signApprovalReceipt } from './approval-receipt.js';
import { mandateShortfall } from './check-mandate.js';

/** The first presentation of the first credential query the approval's transaction data names. */
function authorizingPresentation(session: PresentationSession, vpToken: Record<string, unknown>) {
  const [raw] = session.transactionData ?? [];
  let ids: string[] = [];
  try {
    ids = (JSON.parse(Buffer.from(raw ?? '', 'base64url').toString('utf8')).credential_ids ?? []) as string[];
  } catch {
    // The session's own transaction data always parses; nothing to authorize otherwise.
  }
  for (const id of ids) {
    const presentations = vpToken[id];
    if (Array.isArray(presentations) && typeof presentations[0] === 'string') return presentations[0];
  }
  return undefined;
}

/**
 * An approval's verdict on a verified presentation (its transaction data hashes are checked by then,
 * with the rest of the presentation): the credential's mandate must allow the required power, else
 * the approval fails as `mandate_insufficient` and nothing is released; when it does, the verifier
 * signs the receipt, kept with the result. Other sessions' outcomes pass through.
 */
export async function settleApproval(
  s: VerifierServices,
  session: PresentationSession,
  vpToken: Record<string, unknown>,
  outcome: Outcome,
): Promise<Outcome> {
  if (!session.approval || !('claims' in outcome)) return outcome;
  const shortfall = mandateShortfall(outcome.claims, session.approval.power);
  if (shortfall) return { reason: 'mandate_insufficient', message: shortfall };
  const presentation = authorizingPresentation(session, vpToken);
  if (!presentation)
    return { reason: 'transaction_data_missing', message: 'no presentation authorizes the transaction' };
  const receipt = await signApprovalReceipt(s.signer, s.config.verifierUrl, {
    session,
    approval: session.approval,
    presentation,
    claims: outcome.claims,
  });
  return { ...outcome, receipt };
}
