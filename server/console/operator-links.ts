import { createHash, randomBytes } from 'node:crypto';
import type { TtlStore } from '../ephemeral/ttl-store.js';

/** How long an operator's sign-in link stays good. */
export const OPERATOR_LINK_SECONDS = 300;

const keyOf = (secret: string) =>
  `console:operator-link:${createHash('sha256').update(secret).digest('base64url')}`;

/**
 * A one-time sign-in link for the operator (the CLI's `console link`): a random secret, kept only as
 * its hash in the TTL store (Redis, or memory on the embedded default) for five minutes.
 */
export async function mintOperatorLink(ttl: TtlStore, publicUrl: string) {
  const secret = randomBytes(32).toString('base64url');
  await ttl.set(keyOf(secret), '1', OPERATOR_LINK_SECONDS);
  return {
    url: `${publicUrl}/console/operator?link=${secret}`,
    expiresAt: new Date(Date.now() + OPERATOR_LINK_SECONDS * 1000),
  };
}

/**
 * Spends a link: true only for the first caller with a live one. The entry is deleted and its
 * deletion claimed with setIfAbsent, so two nodes racing on one link cannot both win.
 */
export async function spendOperatorLink(ttl: TtlStore, secret: unknown): Promise<boolean> {
  if (typeof secret !== 'string' || !/^[A-Za-z0-9_-]{43}$/.test(secret)) return false;
  const key = keyOf(secret);
  if ((await ttl.get(key)) !== '1') return false;
  const won = await ttl.setIfAbsent(`${key}:spent`, '1', OPERATOR_LINK_SECONDS);
  await ttl.delete(key);
  return won;
}
