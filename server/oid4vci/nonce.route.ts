import { initServer } from '@ts-rest/express';
import { oid4vciContract } from '../../contract/oid4vci/oid4vci-contract.js';
import type { Signer } from '../keys/signer.js';
import { issueCNonce } from './c-nonce-store.js';

const s = initServer();

/** OID4VCI 1.0 section 7: a fresh c_nonce, never cached; nothing is stored for it. */
export function nonceRoute(signer: Signer) {
  return s.route(oid4vciContract.nonce, async ({ res }) => {
    res.setHeader('Cache-Control', 'no-store');
    return { status: 200, body: { c_nonce: await issueCNonce(signer) } };
  });
}
