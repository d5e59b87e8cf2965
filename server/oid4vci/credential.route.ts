import { initServer } from '@ts-rest/express';
import { oid4vciContract } from '../../contract/oid4vci/oid4vci-contract.js';
import type { AppContext } from '../app-context.js';
import { grantOfRequest } from './access-token-guard.js';
import { issueToWallet } from './issue-to-wallet.js';
import { invalidCredentialRequest, invalidProof, unknownCredentialConfiguration } from './oauth-error.js';
import { verifyKeyProof } from './proof/verify-key-proof.js';

const s = initServer();

/**
 * OID4VCI 1.0 section 8: checks the access token, the request and every key proof before anything
 * is written, then issues one credential per proof (batch issuance up to BATCH_SIZE).
 */
export function credentialRoute(ctx: Pick<AppContext, 'config' | 'signer'>) {
  const { issuerUrl, BATCH_SIZE } = ctx.config;
  return s.route(oid4vciContract.credential, async ({ body, req, res }) => {
    res.setHeader('Cache-Control', 'no-store');
    // The token's grant names its issuance's configuration: the issuance itself is read once, locked,
    // when the credentials are issued (issueToWallet), which also tells a used offer from a live one.
    const grant = await grantOfRequest(req, res, ctx.config);
    if (body.credential_identifier)
      throw invalidCredentialRequest('credential_identifier is not used by this issuer');
    if (body.proof)
      throw invalidCredentialRequest('send key proofs in proofs.jwt (proof is not part of OID4VCI 1.0)');
    if (body.credential_response_encryption)
      throw invalidCredentialRequest('credential response encryption is not supported');
    const requested = body.credential_configuration_id;
    if (!requested) throw invalidCredentialRequest('credential_configuration_id is required');
    if (requested !== grant.configurationId)
      throw unknownCredentialConfiguration(`this access token is for ${grant.configurationId}`);
    // Section 8.2: `proofs` holds exactly one proof type; jwt and di_vp together is malformed.
    const proofTypes = Object.keys(body.proofs ?? {});
    if (proofTypes.length > 1)
      throw invalidCredentialRequest(`proofs must hold one proof type, not ${proofTypes.join(' and ')}`);
    const jwts = body.proofs?.jwt;
    if (!jwts?.length) throw invalidProof('proofs.jwt with at least one key proof is required');
    if (jwts.length > BATCH_SIZE) throw invalidCredentialRequest(`at most ${BATCH_SIZE} proofs per request`);
    const proofs = await Promise.all(jwts.map((jwt) => verifyKeyProof(jwt, issuerUrl)));
    const batch = await issueToWallet(req.em, { signer: ctx.signer, issuerUrl }, grant, proofs);
    return {
      status: 200,
      body: {
        credentials: batch.credentials.map((c) => ({ credential: c.credential })),
        notification_id: batch.notificationId,
      },
    };
  });
}
