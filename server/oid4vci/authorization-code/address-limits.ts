import type { TtlStore } from '../../ephemeral/ttl-store.js';
import { sha256 } from './pending-authorization.js';

/**
 * Wallet-initiated sign-ins have no offer to count wrong codes against, and anyone may start one
 * for any address: the address itself is counted instead, in the TTL store, so that new PARs do not
 * give a guesser fresh attempts, nor let anyone fill a holder's mailbox with codes. Each count is a
 * row of numbered slots taken with setIfAbsent, so parallel requests on several nodes count one by
 * one. The limits hold for a window, then lift by themselves.
 */
export const ADDRESS_WINDOW_SECONDS = 600;
/** One-time codes mailed to one address per window. */
export const MAX_CODES_PER_ADDRESS = 5;
/** Wrong one-time codes for one address per window, over all its sign-ins; then it gets no more codes. */
export const MAX_WRONG_CODES_PER_ADDRESS = 5;

const slot = (email: string, kind: 'mail' | 'wrong', n: number) =>
  `vci-address:${sha256(email.trim().toLowerCase())}:${kind}:${n}`;

async function claim(store: TtlStore, email: string, kind: 'mail' | 'wrong', max: number) {
  for (let n = 1; n <= max; n++)
    if (await store.setIfAbsent(slot(email, kind, n), '1', ADDRESS_WINDOW_SECONDS)) return n;
  return 0;
}

/** Whether another code may be mailed to this address now (and counts it when so). */
export async function mayMailCode(store: TtlStore, email: string): Promise<boolean> {
  if (await store.get(slot(email, 'wrong', MAX_WRONG_CODES_PER_ADDRESS))) return false;
  return (await claim(store, email, 'mail', MAX_CODES_PER_ADDRESS)) > 0;
}

/** Counts a wrong code for the address: true when the address has now used up its attempts. */
export async function countWrongCodeForAddress(store: TtlStore, email: string): Promise<boolean> {
  const n = await claim(store, email, 'wrong', MAX_WRONG_CODES_PER_ADDRESS);
  return n === 0 || n >= MAX_WRONG_CODES_PER_ADDRESS;
}
