import { compactVerify, createLocalJWKSet, decodeProtectedHeader } from 'jose';
import type { Signer } from '../keys/signer.js';

export const CHECKPOINT_TYP = 'audit-checkpoint+jwt';

/** What a checkpoint signs: the head of one tenant's chain at the time it was sealed. */
export interface CheckpointClaims {
  tenant: string;
  seq: number;
  hash: string;
  sealed_at: string;
}

/** A JWS with the `audit` key over the chain head, as transparency logs sign their tree heads. */
export async function signCheckpoint(signer: Signer, head: Omit<CheckpointClaims, 'sealed_at'>, at: Date) {
  const claims: CheckpointClaims = { ...head, sealed_at: at.toISOString() };
  return signer.signJwt(
    'audit',
    { typ: CHECKPOINT_TYP },
    { ...claims, iat: Math.floor(at.getTime() / 1000) },
  );
}

export type CheckpointCheck =
  | { ok: true; claims: CheckpointClaims; kid: string }
  | { ok: false; reason: string; kid: string | null };

/**
 * Verifies a checkpoint against the published `audit` keys and against the head it is stored with:
 * a valid signature over another head (an older checkpoint put back) is as bad as a forged one.
 */
export async function checkCheckpoint(
  signer: Signer,
  jws: string,
  head: { tenant: string; seq: number; hash: string },
): Promise<CheckpointCheck> {
  let kid: string | null = null;
  let claims: CheckpointClaims;
  try {
    const header = decodeProtectedHeader(jws);
    kid = typeof header.kid === 'string' ? header.kid : null;
    if (header.typ !== CHECKPOINT_TYP)
      return { ok: false, reason: 'the checkpoint is not an audit checkpoint', kid };
    const keys = createLocalJWKSet({ keys: await signer.publicJwks('audit') });
    const { payload } = await compactVerify(jws, keys, { algorithms: ['ES256'] });
    claims = JSON.parse(new TextDecoder().decode(payload)) as CheckpointClaims;
  } catch {
    return { ok: false, reason: 'the checkpoint signature does not verify with the audit keys', kid };
  }
  if (claims.tenant !== head.tenant || claims.seq !== head.seq || claims.hash !== head.hash) {
    return { ok: false, reason: `the signed checkpoint (seq ${claims.seq}) is not the chain head`, kid };
  }
  return { ok: true, claims, kid: kid ?? '' };
}
