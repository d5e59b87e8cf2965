import { bearerAttacks } from './bearer-attacks.js';
import {
  type BodyVariant,
  fieldMutations,
  formTransportVariants,
  jsonTransportVariants,
} from './body-variants.js';
import { contractAccepts } from './contract-oracle.js';
import { BAD_QUERIES, ID_SHAPES } from './hostile-values.js';
import type { World } from './hostile-world.js';
import {
  BASE_BODIES,
  fill,
  foreignParams,
  type Operation,
  operations,
  ownParams,
} from './openapi-operations.js';
import type { HostileRequest } from './send.js';

const FORM = 'application/x-www-form-urlencoded';

function encodeBody(op: Operation, body: Record<string, unknown>): BodyVariant {
  if (op.bodyType === FORM) {
    const form = new URLSearchParams(Object.entries(body).map(([k, v]): [string, string] => [k, String(v)]));
    return { label: 'valid', headers: { 'content-type': FORM }, body: form.toString(), parsed: body };
  }
  return {
    label: 'valid',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    parsed: body,
  };
}

/** Every operation of the OpenAPI document, attacked on each axis with everything else valid. */
export function openApiCorpus(w: World, adminToken: string): HostileRequest[] {
  const goodAuth = {
    admin: `Bearer ${adminToken}`,
    integrator: `Bearer ${w.a.integratorToken}`,
    access: `Bearer ${w.accessToken}`,
  };
  const requests: HostileRequest[] = [];
  for (const op of operations()) {
    const own = ownParams(op, w);
    const base = BASE_BODIES[op.key];
    const valid = base ? encodeBody(op, base) : undefined;
    const auth: Record<string, string> = op.security ? { authorization: goodAuth[op.security] } : {};
    const send = (
      label: string,
      params: Record<string, string>,
      headers: Record<string, string>,
      body?: BodyVariant,
      query = '',
    ) =>
      requests.push({
        label: `${op.key}: ${label}`,
        method: op.method,
        path: `${fill(op.path, params)}${query ? `?${query}` : ''}`,
        headers: { ...headers, ...body?.headers },
        ...(body ? { body: body.body } : {}),
        ...(body?.expect ? { expect: body.expect } : {}),
      });

    // Tokens: none, wrong, of another audience or tenant, revoked, forged JWTs. Everything else valid.
    if (op.security) {
      for (const attack of bearerAttacks(op.security, w, adminToken))
        send(attack.label, own, { authorization: attack.header }, valid);
      if (op.security === 'integrator' && op.params.length) {
        send("another tenant's token", own, { authorization: `Bearer ${w.b.integratorToken}` }, valid);
      }
    }
    // Ids of every shape, and real ids of another tenant. A PUT would create what it names: invalid body.
    const idBody = op.method === 'PUT' ? ({ ...valid, label: 'empty', body: '{}' } as BodyVariant) : valid;
    for (const param of op.params) {
      for (const shape of ID_SHAPES)
        send(`${param} = ${shape.slice(0, 40)}`, { ...own, [param]: shape }, auth, idBody);
    }
    for (const params of foreignParams(op, w))
      send(`foreign ids ${JSON.stringify(params)}`, params, auth, idBody);
    // Bodies: each field wrong, then the wrappings. Whatever the contract takes would be a genuine change.
    if (base && valid) {
      const mutations = op.bodyType === FORM ? [] : fieldMutations(base, op.properties, op.required);
      const invalid = mutations.find((m) => !contractAccepts(op.key, m.parsed))?.parsed ?? null;
      const wrappings =
        op.bodyType === FORM
          ? formTransportVariants(base as Record<string, string>)
          : jsonTransportVariants(base, invalid);
      // An access token alone changes nothing (the credential needs a proof of a live nonce): no oracle.
      const genuine = (m: BodyVariant) =>
        op.security !== 'access' && op.security !== undefined && contractAccepts(op.key, m.parsed);
      for (const m of mutations) if (!genuine(m)) send(`body ${m.label}`, own, auth, m);
      for (const v of wrappings) send(`wrapped ${v.label}`, own, auth, v);
    }
    for (const query of op.query.length ? BAD_QUERIES : [])
      send(`query ${query.slice(0, 40)}`, own, auth, undefined, query);
  }
  return [...requests, ...wrongMethods(w, goodAuth.admin)];
}

/** Methods a path does not have: 404 or 405, in the path's format. */
function wrongMethods(w: World, adminAuth: string): HostileRequest[] {
  const byPath = new Map<string, Operation[]>();
  for (const op of operations()) byPath.set(op.path, [...(byPath.get(op.path) ?? []), op]);
  return [...byPath.entries()].flatMap(([path, ops]) =>
    ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
      .filter((m) => !ops.some((o) => o.method === m))
      .map((method) => ({
        label: `${method} ${path}: method the path does not have`,
        method,
        path: fill(path, ownParams(ops[0] as Operation, w)),
        headers: { authorization: adminAuth, 'content-type': 'application/json' },
        body: '{}',
      })),
  );
}
