import { initServer } from '@ts-rest/express';
import type { JWK } from 'jose';
import { oid4vciContract } from '../../../contract/oid4vci/oid4vci-contract.js';
import type { AppContext } from '../../app-context.js';
import { findConfiguration } from '../../credential-configurations/credential-configuration-registry.js';
import { grantOfRequest } from '../access-token-guard.js';
import { responseEncryptionOfRequest } from '../encryption/required-encryption.js';
import { credentialAnswer } from '../encryption/response-encryption.js';
import { credentialRequestDenied, invalidToken, invalidTransactionId } from '../oauth-error.js';
import { issueDeferred } from './issue-deferred.js';
import { isTransactionId, pendingResponse } from './transaction-id.js';

const s = initServer();

interface DeferredRow {
  tenant_id: string;
  status: string;
  payload: Record<string, unknown> | null;
  deferred_transaction_hash: string | null;
  deferred_holder_keys: JWK[] | null;
  approval_expires_at: Date | null;
}

/**
 * OID4VCI 1.0 section 9: the wallet asks again with the transaction_id of its deferred credential
 * request, under the access token of that grant (DPoP if bound, as at the credential endpoint).
 * Undecided: 202 again; approved: the credentials, for the holder keys proven then, and the
 * transaction_id is spent; declined or past the approval's expiry: credential_request_denied. A
 * transaction_id not of this token's issuance is invalid_transaction_id, whatever the issuance.
 */
export function deferredCredentialRoute(ctx: Pick<AppContext, 'config' | 'signer' | 'sql'>) {
  const { issuerUrl } = ctx.config;
  return s.route(oid4vciContract.deferredCredential, async ({ body, req, res }) => {
    res.setHeader('Cache-Control', 'no-store');
    const grant = await grantOfRequest(req, res, ctx);
    // Section 9: the same encryption rules as the credential endpoint, checked before anything else.
    const encryption = await responseEncryptionOfRequest(
      req.em,
      ctx.config,
      res,
      body,
      grant.issuance.tenantId,
    );
    const answer = credentialAnswer(res, encryption);
    const [row] = await ctx.sql.query<DeferredRow>(
      `select tenant_id, status, payload, deferred_transaction_hash, deferred_holder_keys, approval_expires_at
       from issuance where id = $1`,
      [grant.issuanceId],
    );
    if (!row || !isTransactionId(body.transaction_id, row.deferred_transaction_hash))
      throw invalidTransactionId('this transaction_id is unknown or was used already');
    if (row.status === 'declined') throw credentialRequestDenied('the issuer declined this credential');
    if (row.status === 'withdrawn') throw credentialRequestDenied('the issuer withdrew this offer');
    if (row.status === 'awaiting_approval') {
      if (row.approval_expires_at && row.approval_expires_at <= new Date())
        throw credentialRequestDenied('the issuer did not decide in time');
      return answer(202, pendingResponse(body.transaction_id).body);
    }
    if (row.status !== 'approved' || !row.payload || !row.deferred_holder_keys)
      throw invalidTransactionId('this transaction_id was used already');
    const configuration = await findConfiguration(req.em, grant.configurationId);
    if (!configuration)
      throw invalidToken(`the credential configuration ${grant.configurationId} no longer exists`);
    const batch = await issueDeferred(
      req.em,
      { signer: ctx.signer, issuerUrl, sql: ctx.sql },
      {
        id: grant.issuanceId,
        tenantId: row.tenant_id,
        payload: row.payload,
        holderKeys: row.deferred_holder_keys,
        transactionHash: row.deferred_transaction_hash as string,
      },
      configuration,
    );
    return answer(200, {
      credentials: batch.credentials.map((c) => ({ credential: c.credential })),
      notification_id: batch.notificationId,
    });
  });
}
