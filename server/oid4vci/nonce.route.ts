import { initServer } from '@ts-rest/express';
import { oid4vciContract } from '../../contract/oid4vci/oid4vci-contract.js';
import { issueCNonce } from './c-nonce-store.js';

const s = initServer();

/** OID4VCI 1.0 section 7: a fresh c_nonce, never cached. */
export function nonceRoute() {
  return s.route(oid4vciContract.nonce, async ({ req, res }) => {
    res.setHeader('Cache-Control', 'no-store');
    return { status: 200, body: { c_nonce: await issueCNonce(req.em) } };
  });
}
