import { readFileSync } from 'node:fs';
import { createClient } from '../integrator/src/index.js';

export const TRUST_ANCHOR_USAGE = `  trust-anchor add <tenant id> <root.pem>
  trust-anchor list <tenant id>
  trust-anchor remove <tenant id> <sha256>`;

/**
 * `trust-anchor …`: the X.509 roots a tenant's verifier trusts issuers by (a credential whose x5c
 * chain leads to one is accepted when its leaf names the issuer). `add` reads a PEM file; `remove`
 * takes the SHA-256 that `add` and `list` print. Undefined for an unknown sub-command.
 */
export function trustAnchorCommand(
  o: { baseUrl: string; token: string },
  command: string | undefined,
  [tenant, argument]: (string | undefined)[],
  need: (v: string | undefined, what: string) => string,
): Promise<{ status: number; body: unknown }> | undefined {
  const trust = createClient(o).trustedIssuers;
  const id = () => need(tenant, 'tenant id');
  switch (command) {
    case 'add':
      return trust.addTrustAnchor({
        params: { id: id() },
        body: { certificate: readFileSync(need(argument, 'certificate file (PEM)'), 'utf8') },
      });
    case 'list':
      return trust.listTrustAnchors({ params: { id: id() } });
    case 'remove': {
      const sha256 = need(argument, 'sha256 of the anchor');
      // 204 has no body: print what was removed instead of nothing.
      return trust
        .deleteTrustAnchor({ params: { id: id(), sha256 } })
        .then((res) => (res.status === 204 ? { status: 204, body: { removed: sha256 } } : res));
    }
    default:
      return undefined;
  }
}
