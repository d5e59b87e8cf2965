import { createPublicKey } from 'node:crypto';
import { base64url } from 'jose';
import { ChainError } from '../../keys/chain-error.js';
import { checkListedStatus } from '../../oid4vp/verification/check-status.js';
import { check, PresentationError } from '../../oid4vp/verification/presentation-error.js';
import { isCachedStatusListFetcher } from '../../oid4vp/verification/status-list-cache.js';
import { STATUS_LIST_SIGNERS } from '../../oid4vp/verification/status-list-signature.js';
import type { Checks } from '../../oid4vp/verification/types.js';
import { readStatus } from '../../status-list/status-list-encoding.js';
import { trustKey } from '../../trust/trust.js';
import { trustChain } from '../../trust/trust-chain.js';
import { readStatusListCwt, type VerifiedStatusListCwt } from './read-status-list-cwt.js';

type Ref = { idx: number; uri: string };

/**
 * The key of a CWT Status List Token: its x5chain must be trusted as the mdoc's own document signer
 * was, by an anchor or an entity a trust source lists as an issuer or status list signer (HAIP 1.0 section 6.1: status list tokens are trusted by
 * their chain). A token without x5chain cannot be trusted here.
 */
function chainedKey(checks: Checks) {
  return ({ x5chain }: { x5chain?: Uint8Array[] }) => {
    check(x5chain?.length, 'x5c_required', 'the status list token has no x5chain');
    try {
      const { chain } = trustChain(
        x5chain.map((der) => Buffer.from(der).toString('base64')),
        checks.trust,
        STATUS_LIST_SIGNERS,
        { now: checks.now, skewSeconds: checks.skewSeconds },
      );
      return createPublicKey({ key: chain.leafJwk, format: 'jwk' });
    } catch (e) {
      if (e instanceof ChainError) throw new PresentationError(e.code, `its x5chain: ${e.message}`);
      throw e;
    }
  };
}

async function readList(ref: Ref, checks: Checks): Promise<VerifiedStatusListCwt> {
  const fetcher = checks.fetchStatusListCwt;
  check(fetcher, 'status_unavailable', 'this verifier cannot fetch CWT status lists');
  const verify = (token: string) =>
    readStatusListCwt(base64url.decode(token), { uri: ref.uri, key: chainedKey(checks), now: checks.now });
  // A cached fetcher verifies a list once per ttl and anchor set; expiry is checked on every use below.
  const anchors = trustKey(checks.trust);
  const list = isCachedStatusListFetcher(fetcher)
    ? await fetcher.derived(ref.uri, `cwt|${anchors}`, verify, (l) => l.statuses.byteLength)
    : await verify(await fetcher(ref.uri));
  check(
    !list.expiresAt || list.expiresAt.getTime() / 1000 > checks.now - checks.skewSeconds,
    'malformed',
    'it has expired',
  );
  return list;
}

/**
 * An mdoc's status (its MSO's `status.status_list`, Token Status List in CBOR) from the list's CWT
 * form, read and judged as an SD-JWT VC's is from the JWT form (fail closed).
 */
export const checkMdocStatus = (ref: Ref, checks: Checks) =>
  checkListedStatus(ref.uri, async () => {
    const list = await readList(ref, checks);
    return readStatus(list.statuses, list.bits, ref.idx);
  });
