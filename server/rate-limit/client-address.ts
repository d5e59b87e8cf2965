import net from 'node:net';
import type { Request } from 'express';

/**
 * The key a client address is counted under: the IPv4 address, or the /64 an IPv6 address belongs
 * to (one subscriber usually holds a whole /64, so counting single IPv6 addresses would let one
 * client rotate through billions of keys). `req.ip` already honours TRUST_PROXY.
 */
export function addressKey(req: Request): string {
  const ip = req.ip ?? req.socket.remoteAddress ?? 'unknown';
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip);
  if (mapped?.[1]) return mapped[1];
  if (!net.isIPv6(ip)) return ip;
  return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`;
}

function expandIpv6(ip: string): string[] {
  const [head = '', tail] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((h) => h.toLowerCase().replace(/^0+(?=.)/, ''));
}
