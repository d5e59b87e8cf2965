import type { Request } from 'express';
import type { Config } from '../config.js';
import { authenticateWallet } from './client-attestation/authenticate-wallet.js';
import { invalidDpopProof } from './dpop/dpop-errors.js';
import { verifyDpopProof } from './dpop/verify-dpop-proof.js';
import { walletSecurity } from './wallet-security.js';

/**
 * What a token request proves about the wallet, checked alike for every grant: its DPoP proof
 * (RFC 9449 section 5; required when the issuer says so) and its wallet attestation
 * (`attest_jwt_client_auth`). Nothing is spent here: the grant spends the jtis once the code is
 * known to be good, so a refused request leaves the code usable.
 */
export async function tokenRequestProofs(req: Request, config: Config) {
  const security = walletSecurity(config);
  const dpop = await verifyDpopProof(
    req.headersDistinct.dpop,
    { method: req.method, url: `${config.issuerUrl}${req.path}` },
    security.nonces,
  );
  if (!dpop && security.dpopRequired)
    throw invalidDpopProof('this issuer binds access tokens to a DPoP key: send a DPoP proof (RFC 9449)');
  const wallet = await authenticateWallet(req, security, config.issuerUrl);
  return { security, dpop, wallet };
}
