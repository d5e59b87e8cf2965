import type { CredentialDecision } from './decide-user-credential.js';

export interface SyncOutcome {
  outcome: 'issued' | 'renewed' | 'unchanged' | 'revoked' | 'none';
  reason?: string;
  issued: string[];
  revoked: string[];
  offerId?: string;
  /** The signed credential, for a tenant with direct delivery. */
  credential?: string;
  /** Required mapped attributes the user lacks (only with `missingAttributes: 'report'`). */
  missing?: string[];
  /** Offers of the credentials provisioned beside the main one. */
  companionOfferIds?: string[];
  /** Credentials beside the main one that could not be issued, each with why. */
  companionsSkipped?: string[];
}

/**
 * What became of a user's credential when the rules issued none (`decision`): ended (`revoked`: the
 * credentials that ending revoked), left alone, or not issued and why. One definition for the
 * transactional way (sync-user-credential.ts) and the planned one (plan-user-change.ts).
 */
export function settledOutcome(
  decision: Exclude<CredentialDecision, { kind: 'issue' }>,
  revoked: string[],
): SyncOutcome {
  if (decision.kind === 'unchanged') return { outcome: 'unchanged', issued: [], revoked: [] };
  return {
    outcome: decision.kind === 'end' && revoked.length ? 'revoked' : 'none',
    reason: decision.reason,
    issued: [],
    revoked,
    ...(decision.kind === 'none' && decision.missing ? { missing: decision.missing } : {}),
  };
}

/** What became of a user's credential the rules issued anew: the offer, a signed credential, companions. */
export function issuedOutcome(
  decision: Pick<Extract<CredentialDecision, { kind: 'issue' }>, 'live'>,
  i: {
    offerId: string;
    credential: { id: string; credential: string } | undefined;
    revoked: string[];
    companionOfferIds: string[];
    companionsSkipped: string[];
  },
): SyncOutcome {
  return {
    outcome: decision.live ? 'renewed' : 'issued',
    issued: i.credential ? [i.credential.id] : [],
    revoked: i.revoked,
    offerId: i.offerId,
    ...(i.credential ? { credential: i.credential.credential } : {}),
    ...(i.companionOfferIds.length ? { companionOfferIds: i.companionOfferIds } : {}),
    ...(i.companionsSkipped.length ? { companionsSkipped: i.companionsSkipped } : {}),
  };
}
