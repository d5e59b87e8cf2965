import type { TtlStore } from '../ephemeral/ttl-store.js';
// Kept as long past the session's expiry as the session, so a late browser is told "expired".
import { GRACE_SECONDS } from '../verification/ephemeral-sessions.js';

/**
 * What a relying party asked for at /oauth2/authorize, kept beside the sign-in's presentation
 * session in the TTL store until the browser comes back to /oauth2/authorize/complete. Only a
 * verified sign-in turns it into an `oidc_authorization` row; the rest simply expire.
 */
export interface PendingSignIn {
  clientId: string;
  tenantId: string;
  redirectUri: string;
  state: string | null;
  nonce: string;
  codeChallenge: string;
  /** SHA-256 of the secret in the cookie of the browser that started the sign-in. */
  browserBindingHash: string;
  createdAt: string;
}

const key = (sessionId: string) => `oidc-sign-in:${sessionId}`;

export async function savePendingSignIn(
  store: TtlStore,
  sessionId: string,
  signIn: PendingSignIn,
  expiresInSeconds: number,
): Promise<void> {
  await store.set(key(sessionId), JSON.stringify(signIn), expiresInSeconds + GRACE_SECONDS);
}

export async function readPendingSignIn(
  store: TtlStore,
  sessionId: string,
): Promise<PendingSignIn | undefined> {
  const raw = await store.get(key(sessionId));
  return raw ? (JSON.parse(raw) as PendingSignIn) : undefined;
}

/** Ends a sign-in that led nowhere (failed or expired) once: false when it was already ended. */
export async function endDeniedSignIn(store: TtlStore, sessionId: string): Promise<boolean> {
  return store.setIfAbsent(`${key(sessionId)}:ended`, '1', GRACE_SECONDS);
}
