import type { Signer } from '../../keys/signer.js';
import { encodeStatusList } from '../../status-list/status-list-encoding.js';
import {
  STATUS_LIST_LIFETIME_SECONDS,
  STATUS_LIST_TTL_SECONDS,
  type StatusListContent,
} from '../../status-list/status-list-token.js';
import { signStatusListCwt } from './sign-status-list-cwt.js';

export interface SignedStatusListCwt {
  /** The token, served as `application/statuslist+cwt`. */
  token: Uint8Array;
  issuedAt: Date;
  expiresAt: Date;
}

/**
 * The CWT twin of buildStatusListToken: the same list, lifetime and ttl, signed with the active
 * `status-list` key, its chain as x5chain and its kid beside it, so a verifier of mdocs reads the
 * same statuses as one of SD-JWT VCs does (the publisher serves both forms of each list).
 */
export async function buildStatusListCwt(
  signer: Pick<Signer, 'sign' | 'certificateChain' | 'activeKid'>,
  list: StatusListContent,
  now: Date = new Date(),
): Promise<SignedStatusListCwt> {
  const iat = Math.floor(now.getTime() / 1000);
  const exp = iat + STATUS_LIST_LIFETIME_SECONDS;
  const kid = await signer.activeKid('status-list');
  const chain = await signer.certificateChain('status-list', kid);
  const token = await signStatusListCwt(
    {
      kid,
      x5chain: chain.map((der) => new Uint8Array(Buffer.from(der, 'base64'))),
      sign: async (data) => (await signer.sign('status-list', data, kid)).signature,
    },
    {
      subject: list.uri,
      issuedAt: new Date(iat * 1000),
      expiresAt: new Date(exp * 1000),
      ttl: STATUS_LIST_TTL_SECONDS,
      bits: list.bits,
      // The JWT form's compression, without its base64url: one encoder for both forms.
      lst: new Uint8Array(Buffer.from(encodeStatusList(list.statuses), 'base64url')),
    },
  );
  return { token, issuedAt: new Date(iat * 1000), expiresAt: new Date(exp * 1000) };
}
