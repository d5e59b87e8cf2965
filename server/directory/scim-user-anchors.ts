/** A user of the unfiltered list, by its sort key, and the 1-based position it had there. */
export interface Anchor {
  position: number;
  /** As PostgreSQL wrote it (microseconds included), to be read back as the same timestamptz. */
  createdAt: string;
  id: string;
}

/**
 * At most about 50,000 anchors in all (a few MB). A tenant's set starts over when full: it still
 * holds the page just served, which is all a directory paging forward needs.
 */
const PER_TENANT = 256;
const TENANTS = 200;

/**
 * Where positions of each tenant's unfiltered user list (creation time, then id) start, as pages
 * served by this node showed them. They hold only as long as the tenant's user rows are the same:
 * each set is kept with the tenant's change count (`scim_resource_count.changes`) it was seen
 * under, and the statement that uses an anchor checks that count in its own snapshot. A directory
 * paging through a tenant asks for the position right after the page it just got, so a page starts
 * from its predecessor's last user instead of skipping every user before it.
 */
export class UserPageAnchors {
  private readonly tenants = new Map<string, { changes: string; anchors: Anchor[] }>();

  /** The anchor nearest below or at `position`, with the change count it holds for. */
  nearest(tenantId: string, position: number): { changes: string; anchor: Anchor } | undefined {
    const known = this.tenants.get(tenantId);
    if (!known) return undefined;
    const { anchors } = known;
    let lo = 0;
    let hi = anchors.length - 1;
    let found: Anchor | undefined;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const a = anchors[mid] as Anchor;
      if (a.position <= position) {
        found = a;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found && { changes: known.changes, anchor: found };
  }

  /** Records the positions a page showed, under the change count of the statement that read it. */
  learn(tenantId: string, changes: string, seen: Anchor[]): void {
    let known = this.tenants.get(tenantId);
    if (!known || known.changes !== changes || known.anchors.length + seen.length > PER_TENANT) {
      known = { changes, anchors: [] };
      this.tenants.delete(tenantId);
      if (this.tenants.size >= TENANTS) this.tenants.delete(this.tenants.keys().next().value as string);
      this.tenants.set(tenantId, known);
    }
    for (const anchor of seen) insert(known.anchors, anchor);
  }
}

/** Into the list sorted by position, once per position. */
function insert(anchors: Anchor[], anchor: Anchor) {
  let i = anchors.length;
  while (i > 0 && (anchors[i - 1] as Anchor).position > anchor.position) i--;
  if (anchors[i - 1]?.position === anchor.position) return;
  anchors.splice(i, 0, anchor);
}
