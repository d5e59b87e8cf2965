import { readFileSync } from 'node:fs';
import { createAdminClient } from '../integrator/src/index.js';

export const HOLDER_SIGN_IN_PRESENTATION_USAGE = `  holder-sign-in-presentation set <tenant id> <rule.json>
  holder-sign-in-presentation get <tenant id>
  holder-sign-in-presentation remove <tenant id>`;

/**
 * `holder-sign-in-presentation …`: the credential a tenant's holders present to sign in for
 * issuance (instead of a mailed code) and the rule its claims must meet. `set` reads the rule from a
 * JSON file: `{"credential": <DCQL credential query>, "match": [{"claim", "source", "field",
 * "compare"}]}`. Undefined for an unknown sub-command.
 */
export function holderSignInPresentationCommand(
  o: { baseUrl: string; token: string },
  command: string | undefined,
  [tenant, file]: (string | undefined)[],
  need: (v: string | undefined, what: string) => string,
): Promise<{ status: number; body: unknown }> | undefined {
  const admin = createAdminClient(o);
  const params = () => ({ id: need(tenant, 'tenant id') });
  switch (command) {
    case 'set':
      return admin.putHolderSignInPresentation({
        params: params(),
        body: JSON.parse(readFileSync(need(file, 'rule file (JSON)'), 'utf8')),
      });
    case 'get':
      return admin.getHolderSignInPresentation({ params: params() });
    case 'remove':
      // 204 has no body: print what was removed instead of nothing.
      return admin
        .deleteHolderSignInPresentation({ params: params() })
        .then((res) => (res.status === 204 ? { status: 204, body: { removed: tenant } } : res));
    default:
      return undefined;
  }
}
