import net from 'node:net';
import type { Request } from 'express';
import { normalizeAddress } from '../outbound/address-policy.js';

/**
 * The key a client address is counted under: the IPv4 address (also when IPv4-mapped, as
 * outbound/address-policy reads it), or the /64 an IPv6 address belongs to (one subscriber usually
 * holds a whole /64, so counting single IPv6 addresses would let one client rotate through billions
 * of keys). `req.ip` already honours TRUST_PROXY.
 */
export function addressKey(req: Request): string {
  const raw = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  let key = recent.get(raw);
  if (key === undefined) {
    key = keyOf(raw);
    if (recent.size >= 10_000) recent.clear();
    recent.set(raw, key);
  }
  return key;
}

/** Keys of the addresses seen lately: a client sends many requests, each was normalised anew. */
const recent = new Map<string, string>();

function keyOf(raw: string): string {
  const { address: ip, family } = normalizeAddress(raw);
  if (family === 'ipv4' || !net.isIPv6(ip)) return ip;
  return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`;
}

function expandIpv6(ip: string): string[] {
  const [head = '', tail] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((h) => h.toLowerCase().replace(/^0+(?=.)/, ''));
}
