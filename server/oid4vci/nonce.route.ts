import { initServer } from '@ts-rest/express';
import { oid4vciContract } from '../../contract/oid4vci/oid4vci-contract.js';
import type { AppContext } from '../app-context.js';
import { issueCNonce } from './c-nonce-store.js';
import { walletSecurity } from './wallet-security.js';

const s = initServer();

/**
 * OID4VCI 1.0 section 7: a fresh c_nonce, never cached; nothing is stored for it. Beside it, the
 * current DPoP nonce (section 7.2, HAIP), so a DPoP wallet's first credential request succeeds.
 */
export function nonceRoute(ctx: Pick<AppContext, 'config' | 'signer'>) {
  return s.route(oid4vciContract.nonce, async ({ res }) => {
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('DPoP-Nonce', walletSecurity(ctx.config).nonces.current());
    return { status: 200, body: { c_nonce: await issueCNonce(ctx.signer) } };
  });
}
