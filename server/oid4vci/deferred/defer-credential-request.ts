import type { EntityManager } from '@mikro-orm/postgresql';
import type { JWK } from 'jose';
import { statementAudit } from '../../audit/audit-log.js';
import { Params, type Sql } from '../../persistence/sql.js';
import type { AccessTokenGrant } from '../access-token-store.js';
import { type ProvenHolder, sweepUsedNonces, unclaimed } from '../claim-and-issue.js';
import { credentialRequestDenied, invalidNonce } from '../oauth-error.js';
import { APPROVAL_WAIT_SECONDS, newTransactionId } from './transaction-id.js';

/** A second credential request of a deferred issuance is told where its credentials come from. */
const notDeferred = (status: string | undefined) =>
  status === 'awaiting_approval' || status === 'approved' || status === 'declined'
    ? credentialRequestDenied('this request was deferred already: ask the deferred credential endpoint')
    : unclaimed(status);

/**
 * The credential request of an issuance that needs the integrator's approval (OID4VCI 1.0 section
 * 8.3): its proofs were checked as usual; instead of credentials the wallet gets a transaction_id.
 * One statement, like claimAndIssue, moves the issuance from redeemed to awaiting_approval with the
 * proven holder keys and the transaction_id's hash, spends the c_nonces and records the audit event
 * (which raises the issuance.awaiting_approval webhook). Of two racing requests only one defers.
 */
export async function deferCredentialRequest(
  em: EntityManager,
  sql: Sql,
  grant: AccessTokenGrant,
  holder: ProvenHolder,
): Promise<string> {
  const { status, tenantId } = grant.issuance;
  if (status !== 'redeemed') throw notDeferred(status);
  const { transactionId, hash } = newTransactionId();
  const audit = statementAudit([
    {
      tenantId,
      actor: 'wallet',
      action: 'issuance.awaiting_approval',
      subject: grant.issuanceId,
      details: { configuration: grant.configurationId, holder_keys: holder.keys.length },
    },
  ]);
  const params = new Params();
  const text = `with deferred as (
      update issuance set status = 'awaiting_approval', deferred_transaction_hash = ${params.add(hash)},
        deferred_holder_keys = ${params.add(JSON.stringify(holder.keys satisfies JWK[]))}::jsonb,
        approval_expires_at = now() + make_interval(secs => ${params.add(APPROVAL_WAIT_SECONDS)})
      where id = ${params.add(grant.issuanceId)} and status = 'redeemed' and approval_required
      returning id
    ), used_nonces as (
      insert into oid4vci_nonce (nonce_hash, expires_at)
      select n.hash, n.expires_at
      from unnest(${params.add(holder.cNonces.map((n) => n.hash))}::text[],
        ${params.add(holder.cNonces.map((n) => n.expiresAt))}::timestamptz[]) as n(hash, expires_at), deferred
    ),
    ${audit.ctes(params, 'deferred')}
    select count(*)::int as deferred from deferred`;
  let deferred: number;
  try {
    [{ deferred } = { deferred: 0 }] = await sql.query<{ deferred: number }>(text, params.values);
  } catch (e) {
    if ((e as { constraint?: string }).constraint === 'oid4vci_nonce_pkey')
      throw invalidNonce('a proof or key attestation nonce is not a fresh c_nonce of this issuer');
    throw e;
  }
  if (!deferred) {
    const [now] = await sql.query<{ status: string }>('select status from issuance where id = $1', [
      grant.issuanceId,
    ]);
    throw notDeferred(now?.status);
  }
  await audit.committed(em);
  await sweepUsedNonces(sql);
  return transactionId;
}
