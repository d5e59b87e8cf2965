import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request } from 'express';
import { ecJwkThumbprint } from '../../keys/es256-jws.js';
import { useJtiOnce } from '../dpop/proof-jti.js';
import { invalidRequest } from '../oauth-error.js';
import type { WalletSecurity } from '../wallet-security.js';
import { invalidClient } from './client-attestation-errors.js';
import { verifyAttestationPop } from './verify-attestation-pop.js';
import { verifyClientAttestation } from './verify-client-attestation.js';

export interface AuthenticatedWallet {
  /** The attestation's `sub`: the wallet's client_id. */
  clientId: string;
  /** Thumbprint of the wallet instance key, and the PoP's jti, spent by `spendAttestationPop`. */
  instanceJkt: string;
  popJti: string;
}

/**
 * `attest_jwt_client_auth` at the token endpoint: exactly one `OAuth-Client-Attestation` and one
 * `OAuth-Client-Attestation-PoP` header, both verified, and a `client_id` in the request (if any)
 * equal to the attestation's `sub`. Undefined when the wallet sends neither header and the
 * configuration lets anonymous wallets in; nothing is written.
 */
export async function authenticateWallet(
  req: Request,
  security: WalletSecurity,
  issuer: string,
): Promise<AuthenticatedWallet | undefined> {
  const attestation = req.headersDistinct['oauth-client-attestation'];
  const pop = req.headersDistinct['oauth-client-attestation-pop'];
  if (!attestation && !pop) {
    if (security.attestationRequired)
      throw invalidClient('a wallet attestation (OAuth-Client-Attestation and its PoP) is required');
    return undefined;
  }
  if (attestation?.length !== 1 || pop?.length !== 1)
    throw invalidClient(
      'send exactly one OAuth-Client-Attestation and one OAuth-Client-Attestation-PoP header',
    );
  // Before any tenant is known (PAR, token): the deployment's wallet providers, see walletProviderTrust.
  const trust = await security.walletProviders(req.em);
  const verified = await verifyClientAttestation(attestation[0] as string, trust);
  const popJti = await verifyAttestationPop(pop[0] as string, verified.cnfJwk, issuer);
  const clientId: unknown = req.body?.client_id;
  if (clientId !== undefined) {
    if (typeof clientId !== 'string') throw invalidRequest('client_id must be given once');
    if (clientId !== verified.sub) throw invalidClient('client_id must be the sub of the wallet attestation');
  }
  return { clientId: verified.sub, instanceJkt: ecJwkThumbprint(verified.cnfJwk), popJti };
}

/** Spends the PoP's jti: a PoP seen before, on any node, is refused. */
export async function spendAttestationPop(em: EntityManager, wallet: AuthenticatedWallet): Promise<void> {
  if (!(await useJtiOnce(em, `attestation-pop:${wallet.instanceJkt}`, wallet.popJti)))
    throw invalidClient('this client attestation PoP was used before (jti); make a new one for each request');
}
