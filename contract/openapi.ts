import { generateOpenApi } from '@ts-rest/open-api';
import { contract } from './index.js';

const SECURITY: Record<string, string> = {
  admin: 'adminToken',
  integrator: 'integratorToken',
};

/** The OpenAPI 3 document of the contract; openapi/openapi.json is this, written by `npm run openapi`. */
export function buildOpenApi(): Record<string, unknown> {
  const doc = generateOpenApi(
    contract,
    {
      info: {
        title: 'Credential Service',
        version: '1.0.0',
        description:
          'Issues employee credentials to wallets (OID4VCI), verifies presentations (OID4VP) and keeps ' +
          'them in step with the company directory (SCIM 2.0). Errors of the integrator and admin APIs ' +
          'are RFC 9457 problem details.',
      },
      components: {
        securitySchemes: {
          adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN of the deployment' },
          integratorToken: { type: 'http', scheme: 'bearer', description: 'An integrator token of a tenant' },
        },
      },
    },
    {
      setOperationId: 'concatenated-path',
      operationMapper: (operation, route) => {
        const scheme = SECURITY[(route.metadata as { security?: string } | undefined)?.security ?? ''];
        return scheme ? { ...operation, security: [{ [scheme]: [] }] } : operation;
      },
    },
  );
  return unionsAsAnyOf(doc) as Record<string, unknown>;
}

/**
 * A zod union accepts a value when any member does, so its JSON Schema is `anyOf`; the generator
 * writes `oneOf`, which refuses a value that fits two members (an employee payload is also an object
 * of another configuration). Discriminated unions (with `discriminator`) are disjoint and stay oneOf.
 */
function unionsAsAnyOf(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(unionsAsAnyOf);
  if (node === null || typeof node !== 'object') return node;
  const entries = Object.entries(node).map(([k, v]) => [k, unionsAsAnyOf(v)] as const);
  const plainUnion = 'oneOf' in node && !('discriminator' in node);
  return Object.fromEntries(entries.map(([k, v]) => [plainUnion && k === 'oneOf' ? 'anyOf' : k, v]));
}
