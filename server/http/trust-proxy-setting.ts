import net from 'node:net';
import { z } from 'zod';

/** Names Express (proxy-addr) knows for address ranges. */
const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrRange(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (!family || rest.length) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: which proxies may tell the service the client's address and protocol
 * (X-Forwarded-For, X-Forwarded-Proto). `false` (default): none, the socket is the truth; a number:
 * that many hops in front of the service; otherwise a comma-separated list of addresses and CIDR
 * ranges (and Express's names loopback, linklocal, uniquelocal). `true` is refused: trusting every
 * hop lets any client claim any address and HTTPS.
 */
export const TrustProxySetting = z.string().transform((raw, ctx): false | number | string[] => {
  const value = raw.trim();
  if (value === '' || value === 'false' || value === '0') return false;
  if (/^\d+$/.test(value)) return Number(value);
  const entries = value.split(',').map((e) => e.trim());
  const bad = entries.filter((e) => !isAddressOrRange(e));
  if (bad.length) {
    ctx.addIssue({
      code: z.ZodIssueCode.custom,
      message: `expected false, a hop count or a list of addresses/CIDR ranges; not ${bad.join(', ')}`,
    });
    return z.NEVER;
  }
  return entries;
});

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether a base URL is on this machine only: then the service is in local development. */
export function isLoopbackUrl(url: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(url).hostname);
  } catch {
    return false;
  }
}
