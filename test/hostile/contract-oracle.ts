import { type AppRoute, type AppRouter, isAppRoute, isAppRouteNoBody } from '@ts-rest/core';
import type { ZodTypeAny } from 'zod';
import { contract } from '../../contract/index.js';

function routesOf(router: AppRouter): AppRoute[] {
  return Object.values(router).flatMap((r) => (isAppRoute(r) ? [r] : routesOf(r as AppRouter)));
}

/** Each contract route's body schema, keyed as OpenAPI names the operation: `PATCH /admin/v1/tenants/{id}`. */
const bodySchemas = new Map<string, ZodTypeAny>(
  routesOf(contract).flatMap((r) =>
    r.method !== 'GET' && 'body' in r && !isAppRouteNoBody(r.body)
      ? [[`${r.method} ${r.path.replace(/:(\w+)/g, '{$1}')}`, r.body as ZodTypeAny]]
      : [],
  ),
);

/**
 * Text no service should store, found in the JSON text of a value: control characters other than
 * tab and newlines, and unpaired surrogates (JSON.stringify escapes both).
 */
const UNSTORABLE =
  /\\u00(0[0-8bcef]|1[0-9a-f])|\\u007f|\\ud[89ab][0-9a-f]{2}(?!\\ud[c-f])|(?<!\\ud[89ab][0-9a-f]{2})\\ud[c-f][0-9a-f]{2}/i;

/**
 * Whether the contract takes `body` for this operation: then, sent with a valid token to a real
 * resource, it is a genuine change, not an attack, and the suite leaves it out. Text the edge must
 * refuse (control characters, unpaired surrogates) is never genuine, whatever the schema says.
 */
export function contractAccepts(operation: string, body: unknown): boolean {
  const schema = bodySchemas.get(operation);
  if (!schema || UNSTORABLE.test(JSON.stringify(body) ?? '')) return false;
  return schema.safeParse(body).success;
}
