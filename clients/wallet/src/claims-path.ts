import { base64url } from 'jose';
import { WalletError } from './errors.js';
import { decodeJwtPart, disclosureDigest, splitSdJwt } from './sd-jwt.js';

/** A claims path pointer (OID4VP §7): keys, array indexes, and null for every element. */
export type ClaimsPath = (string | number | null)[];

/**
 * A claim of an SD-JWT as its holder sees it (all disclosures applied), with the disclosure that
 * reveals the claim itself when it is selectively disclosable. Disclosing a claim takes the
 * disclosures of its ancestors (without them the verifier cannot reach it) and of its descendants
 * (selecting an object selects it "with its sub-claims", OID4VP §7.1).
 */
export interface ClaimNode {
  value: unknown;
  disclosure?: string;
  /** Object members by name, or array elements by index; absent for a primitive value. */
  children?: Map<string | number, ClaimNode>;
  isArray?: boolean;
}

/** Builds the claim tree of a compact SD-JWT from its issuer-signed payload and its disclosures. */
export function claimTree(compact: string): ClaimNode {
  const { issuerJwt, disclosures } = splitSdJwt(compact);
  const byDigest = new Map<string, { encoded: string; parts: unknown[] }>();
  for (const encoded of disclosures) {
    const parts = JSON.parse(new TextDecoder().decode(base64url.decode(encoded))) as unknown[];
    byDigest.set(disclosureDigest(encoded), { encoded, parts });
  }
  const walk = (value: unknown, disclosure?: string): ClaimNode => {
    const node: ClaimNode = { value, ...(disclosure ? { disclosure } : {}) };
    if (!value || typeof value !== 'object') return node;
    const children = new Map<string | number, ClaimNode>();
    if (Array.isArray(value)) {
      for (const element of value) {
        const digest = (element as Record<string, unknown> | null)?.['...'];
        const d = typeof digest === 'string' ? byDigest.get(digest) : undefined;
        // An element digest without a disclosure is a decoy: it is not an element at all.
        if (typeof digest === 'string' && !d) continue;
        children.set(children.size, d ? walk(d.parts[1], d.encoded) : walk(element));
      }
      return { ...node, value: [...children.values()].map((c) => c.value), children, isArray: true };
    }
    const obj = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(obj)) if (k !== '_sd' && k !== '_sd_alg') children.set(k, walk(v));
    for (const digest of Array.isArray(obj._sd) ? obj._sd : []) {
      const d = byDigest.get(digest as string);
      if (d) children.set(d.parts[1] as string, walk(d.parts[2], d.encoded));
    }
    return { ...node, value: Object.fromEntries([...children].map(([k, c]) => [k, c.value])), children };
  };
  return walk(decodeJwtPart(issuerJwt, 1));
}

/**
 * The disclosures of the elements before index `i`. The verifier evaluates the path on the presented
 * array, where withheld elements are gone, so element `i` keeps its index only if those before it
 * are presented too (their own disclosures, not what is inside them).
 */
const elementsBefore = (array: ClaimNode, i: number) =>
  [...(array.children?.values() ?? [])].slice(0, i).flatMap((c) => (c.disclosure ? [c.disclosure] : []));

/** Every disclosure inside a claim, its own included. */
function disclosuresWithin(node: ClaimNode, into: Set<string>): void {
  if (node.disclosure) into.add(node.disclosure);
  for (const child of node.children?.values() ?? []) disclosuresWithin(child, into);
}

/**
 * Processes a claims path pointer (OID4VP §7.1.1) over the claim tree and returns the disclosures
 * that reveal every selected claim, or undefined when the path selects nothing (the claim is then
 * treated as absent). With `values`, only claims whose type and value equal one of them count
 * (§6.3, §6.4.1). A path that meets a value of the wrong kind is a processing error (§7.1.1): this
 * credential cannot answer it, so it is undefined too. Only a malformed path throws.
 */
export function disclosuresForPath(
  root: ClaimNode,
  path: ClaimsPath,
  values?: unknown[],
): Set<string> | undefined {
  if (!Array.isArray(path) || path.length === 0)
    throw new WalletError('a claims path is not a non-empty array');
  let selected = [{ node: root, chain: [] as string[] }];
  for (const component of path) {
    const next: typeof selected = [];
    for (const { node, chain } of selected) {
      const isObject = node.children !== undefined && !node.isArray;
      const take = (child: ClaimNode | undefined, before: string[] = []) => {
        const own = child?.disclosure ? [child.disclosure] : [];
        if (child) next.push({ node: child, chain: [...chain, ...before, ...own] });
      };
      if (typeof component === 'string') {
        if (!isObject) return undefined;
        take(node.children?.get(component));
      } else if (component === null || (Number.isInteger(component) && component >= 0)) {
        if (!node.isArray) return undefined;
        if (component === null) for (const child of node.children?.values() ?? []) take(child);
        else take(node.children?.get(component), elementsBefore(node, component));
      } else throw new WalletError(`claims path ${JSON.stringify(path)} has an invalid component`);
    }
    selected = next;
  }
  if (values !== undefined) selected = selected.filter(({ node }) => values.some((v) => v === node.value));
  if (selected.length === 0) return undefined;
  const out = new Set<string>();
  for (const { node, chain } of selected) {
    for (const d of chain) out.add(d);
    disclosuresWithin(node, out);
  }
  return out;
}
