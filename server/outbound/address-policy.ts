import net from 'node:net';

/**
 * Addresses an outbound request must not reach unless the operator allows them: private networks,
 * loopback, link-local (cloud metadata at 169.254.169.254), shared and reserved ranges, multicast.
 * Those are where an attacker-chosen URL (a credential's status list, an issuer's metadata) would
 * reach the service's own infrastructure.
 */
const BLOCKED: [string, number, 'ipv4' | 'ipv6'][] = [
  ['0.0.0.0', 8, 'ipv4'],
  ['10.0.0.0', 8, 'ipv4'],
  ['100.64.0.0', 10, 'ipv4'],
  ['127.0.0.0', 8, 'ipv4'],
  ['169.254.0.0', 16, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['::', 128, 'ipv6'],
  ['::1', 128, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'],
  ['100::', 64, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
  ['fc00::', 7, 'ipv6'],
  ['fe80::', 10, 'ipv6'],
  ['ff00::', 8, 'ipv6'],
];

const blocked = new net.BlockList();
for (const [address, prefix, family] of BLOCKED) blocked.addSubnet(address, prefix, family);

/** `::ffff:10.0.0.1` (and its hex form) is 10.0.0.1: judged as the IPv4 address it carries. */
export function normalizeAddress(address: string): { address: string; family: 'ipv4' | 'ipv6' } {
  const bare = address.replace(/^\[|\]$/g, '');
  if (net.isIPv4(bare)) return { address: bare, family: 'ipv4' };
  const mapped = /^::ffff:(?:0:)?([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(bare);
  if (mapped) {
    const hi = Number.parseInt(mapped[1] ?? '0', 16);
    const lo = Number.parseInt(mapped[2] ?? '0', 16);
    return { address: [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.'), family: 'ipv4' };
  }
  const dotted = /^::ffff:(?:0:)?(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  if (dotted?.[1]) return { address: dotted[1], family: 'ipv4' };
  return { address: bare, family: 'ipv6' };
}

/**
 * `OUTBOUND_ALLOW_PRIVATE`: comma-separated addresses or CIDR ranges (`127.0.0.1`, `10.1.0.0/16`,
 * `fd00::/8`) that outbound requests may reach although they are private.
 */
export function parseAllowList(setting: string | undefined): net.BlockList {
  const list = new net.BlockList();
  for (const entry of (setting ?? '').split(',').map((e) => e.trim())) {
    if (!entry) continue;
    const [address = '', prefix] = entry.split('/');
    const family = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : undefined;
    if (!family) throw new Error(`OUTBOUND_ALLOW_PRIVATE: ${entry} is not an address or CIDR range`);
    if (prefix === undefined) list.addAddress(address, family);
    else {
      const bits = Number(prefix);
      if (!Number.isInteger(bits) || bits < 0 || bits > (family === 'ipv4' ? 32 : 128))
        throw new Error(`OUTBOUND_ALLOW_PRIVATE: ${entry} has a bad prefix length`);
      list.addSubnet(address, bits, family);
    }
  }
  return list;
}

/** True when `address` may be connected to: public, or on the operator's allow list. */
export function addressAllowed(address: string, allowList: net.BlockList): boolean {
  const a = normalizeAddress(address);
  if (!net.isIP(a.address)) return false;
  if (allowList.check(a.address, a.family)) return true;
  return !blocked.check(a.address, a.family);
}
