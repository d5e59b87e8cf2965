import { initServer } from '@ts-rest/express';
import { oid4vciContract } from '../../contract/oid4vci/oid4vci-contract.js';
import type { AppContext } from '../app-context.js';
import { findConfiguration } from '../credential-configurations/credential-configuration-registry.js';
import { grantOfRequest } from './access-token-guard.js';
import { checkCNonces } from './c-nonce-store.js';
import { deferCredentialRequest } from './deferred/defer-credential-request.js';
import { pendingResponse } from './deferred/transaction-id.js';
import { responseEncryptionOfRequest } from './encryption/required-encryption.js';
import { credentialAnswer } from './encryption/response-encryption.js';
import { issueToWallet } from './issue-to-wallet.js';
import { invalidCredentialRequest, invalidToken, unknownCredentialConfiguration } from './oauth-error.js';
import { holderKeys } from './proof/holder-keys.js';
import { walletSecurity } from './wallet-security.js';

const s = initServer();

/**
 * OID4VCI 1.0 section 8: checks the access token, the request and every key proof (and key
 * attestation, appendix D) before anything is written, then issues one credential per holder key
 * (batch issuance up to BATCH_SIZE). The request may come encrypted and ask for an encrypted
 * response (section 10; decrypt-credential-request.ts opens it before the contract reads it).
 */
export function credentialRoute(ctx: Pick<AppContext, 'config' | 'signer' | 'sql'>) {
  const { issuerUrl, BATCH_SIZE } = ctx.config;
  const security = walletSecurity(ctx.config);
  return s.route(oid4vciContract.credential, async ({ body, req, res }) => {
    res.setHeader('Cache-Control', 'no-store');
    // The token's grant names its issuance's configuration: the issuance itself is claimed once, when
    // the credentials are issued (issueToWallet), which also tells a used offer from a live one.
    const grant = await grantOfRequest(req, res, ctx);
    if (body.credential_identifier)
      throw invalidCredentialRequest('credential_identifier is not used by this issuer');
    if (body.proof)
      throw invalidCredentialRequest(
        'send key proofs in proofs.jwt or proofs.attestation (proof is not part of OID4VCI 1.0)',
      );
    const encryption = await responseEncryptionOfRequest(
      req.em,
      ctx.config,
      res,
      body,
      grant.issuance.tenantId,
    );
    const answer = credentialAnswer(res, encryption);
    const requested = body.credential_configuration_id;
    if (!requested) throw invalidCredentialRequest('credential_configuration_id is required');
    if (requested !== grant.configurationId)
      throw unknownCredentialConfiguration(`this access token is for ${grant.configurationId}`);
    // Section 8.2: `proofs` holds exactly one proof type; jwt and di_vp together is malformed.
    const proofTypes = Object.keys(body.proofs ?? {});
    if (proofTypes.length > 1)
      throw invalidCredentialRequest(`proofs must hold one proof type, not ${proofTypes.join(' and ')}`);
    // From the node's cache: configurations change only through the admin API.
    const configuration = await findConfiguration(req.em, requested);
    if (!configuration) throw invalidToken(`the credential configuration ${requested} no longer exists`);
    const holder = await holderKeys(body.proofs, {
      issuer: issuerUrl,
      // Deployment-wide like at the token endpoint (walletProviderTrust); from the node's cache.
      walletProviders: await security.walletProviders(req.em),
      batchSize: BATCH_SIZE,
      required: configuration.keyAttestationsRequired ?? null,
    });
    const cNonces = await checkCNonces(ctx.signer, holder.nonces);
    // An issuance behind an approval keeps the proven keys and answers 202 (OID4VCI section 8.3); a
    // refreshed token of one already issued gets its fresh credential as usual.
    if (grant.issuance.approvalRequired && grant.issuance.status !== 'issued') {
      const transactionId = await deferCredentialRequest(req.em, ctx.sql, grant, {
        keys: holder.keys,
        cNonces,
      });
      return answer(202, pendingResponse(transactionId).body);
    }
    const batch = await issueToWallet(
      req.em,
      { signer: ctx.signer, issuerUrl, sql: ctx.sql },
      grant,
      configuration,
      {
        keys: holder.keys,
        cNonces,
      },
    );
    const response = {
      credentials: batch.credentials.map((c) => ({ credential: c.credential })),
      notification_id: batch.notificationId,
    };
    return answer(200, response);
  });
}
