import type { EntityManager } from '@mikro-orm/postgresql';
import type { Request, Response } from 'express';
import type { Config } from '../config.js';
import { authenticateWallet, spendAttestationPop } from './client-attestation/authenticate-wallet.js';
import { invalidDpopProof } from './dpop/dpop-errors.js';
import { useDpopProof, verifyDpopProof } from './dpop/verify-dpop-proof.js';
import { walletSecurity } from './wallet-security.js';

/**
 * What a wallet's request to the authorization server (PAR, token) proves about the wallet, checked
 * alike for every grant: its DPoP proof (RFC 9449 sections 5 and 10; at the token endpoint required
 * when the issuer says so) and its wallet attestation (`attest_jwt_client_auth`). Nothing is spent
 * here: the endpoint calls `spend` once its own checks have passed, so a refused request leaves the
 * code usable and the proofs unspent.
 */
export async function walletProofs(req: Request, config: Config, endpoint: 'par' | 'token') {
  const security = walletSecurity(config);
  const dpop = await verifyDpopProof(
    req.headersDistinct.dpop,
    { method: req.method, url: `${config.issuerUrl}${req.path}` },
    security.nonces,
  );
  if (!dpop && endpoint === 'token' && security.dpopRequired)
    throw invalidDpopProof('this issuer binds access tokens to a DPoP key: send a DPoP proof (RFC 9449)');
  const wallet = await authenticateWallet(req, security, config.issuerUrl);
  return {
    dpop,
    wallet,
    /** Spends the DPoP proof's and the attestation PoP's jtis (each refused if seen before). */
    spend: async (em: EntityManager) => {
      if (dpop) await useDpopProof(em, dpop);
      if (wallet) await spendAttestationPop(em, wallet);
    },
    /** RFC 9449 section 8.2: with DPoP, the nonce for the wallet's next proof. */
    sendNextNonce: (res: Response) => {
      if (dpop) res.setHeader('DPoP-Nonce', security.nonces.current());
    },
  };
}
