import { generateKeyPairSync } from 'node:crypto';
import { ID_SHAPES } from './hostile-values.js';
import type { World } from './hostile-world.js';
import { jwtAttacks } from './jwt-attacks.js';
import type { HostileRequest } from './send.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

/** Compact JWEs that are not encrypted to the session's key, or not JWEs at all, some naming its kid. */
function forgedResponses(encKid: string): { label: string; token: string }[] {
  const epk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).publicKey.export({ format: 'jwk' });
  const jwe = (header: Record<string, unknown>) =>
    `${b64(header)}..${b64('iv')}.${b64('ciphertext')}.${b64('tag')}`;
  return [
    {
      label: 'garbage ciphertext to the session key',
      token: jwe({ alg: 'ECDH-ES', enc: 'A128GCM', kid: encKid, epk }),
    },
    { label: 'alg dir', token: jwe({ alg: 'dir', enc: 'A128GCM', kid: encKid }) },
    { label: 'alg none', token: jwe({ alg: 'none', enc: 'A128GCM', kid: encKid }) },
    { label: 'RSA1_5 (padding oracle)', token: jwe({ alg: 'RSA1_5', enc: 'A128CBC-HS256', kid: encKid }) },
    { label: 'unknown enc', token: jwe({ alg: 'ECDH-ES', enc: 'A1GCM', kid: encKid, epk }) },
    {
      label: 'epk off the curve',
      token: jwe({ alg: 'ECDH-ES', enc: 'A128GCM', kid: encKid, epk: { ...epk, x: epk.y } }),
    },
    { label: 'kid SQL injection', token: jwe({ alg: 'ECDH-ES', enc: 'A128GCM', kid: "x' or '1'='1", epk }) },
    { label: 'kid NUL', token: jwe({ alg: 'ECDH-ES', enc: 'A128GCM', kid: 'a\u0000b', epk }) },
    { label: 'a JWS, not a JWE', token: `${b64({ alg: 'none' })}.${b64({ state: 'x' })}.` },
    { label: 'not base64', token: '%%%.%%%.%%%.%%%.%%%' },
  ];
}

/** Wallet-facing routes beyond the OpenAPI operations: proofs, responses, SSE, status lists, pages. */
export function walletCorpus(w: World, baseUrl: string): HostileRequest[] {
  const requests: HostileRequest[] = [];
  const add = (
    label: string,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ) =>
    requests.push({
      label: `wallet ${label}`,
      method,
      path,
      headers,
      ...(body === undefined ? {} : { body }),
    });
  const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const proofs = jwtAttacks({
    claims: { aud: baseUrl, nonce: 'hostile-nonce' },
    typ: 'openid4vci-proof+jwt',
    serviceJwk: w.issuerJwk,
    ownKey: { key: holder.privateKey, header: { jwk: holder.publicKey.export({ format: 'jwk' }) } },
  });
  const access = { authorization: `Bearer ${w.accessToken}`, 'content-type': 'application/json' };
  for (const p of proofs) {
    const body = { credential_configuration_id: 'LEARCredentialEmployee', proofs: { jwt: [p.token] } };
    add(`credential proof ${p.label}`, 'POST', '/oid4vci/v1/credential', access, JSON.stringify(body));
  }
  add(
    'credential with a draft proof',
    'POST',
    '/oid4vci/v1/credential',
    access,
    JSON.stringify({ proof: { proof_type: 'jwt', jwt: proofs[0]?.token } }),
  );
  add(
    'credential with 10,000 proofs',
    'POST',
    '/oid4vci/v1/credential',
    access,
    JSON.stringify({ proofs: { jwt: Array(10_000).fill('a.b.c') } }),
  );

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const vpTokens = jwtAttacks({
    claims: { iss: 'https://attacker.example', vct: 'x' },
    typ: 'dc+sd-jwt',
    serviceJwk: w.issuerJwk,
  });
  for (const state of ['unknown-state', w.a.finishedState, w.b.finishedState]) {
    for (const t of vpTokens) {
      add(
        `response vp_token ${t.label}`,
        'POST',
        '/oid4vp/auth-response',
        FORM,
        form({ state, vp_token: JSON.stringify({ q: [`${t.token}~`] }) }),
      );
    }
    add(
      'response wallet error',
      'POST',
      '/oid4vp/auth-response',
      FORM,
      form({ state, error: 'access_denied' }),
    );
    add(
      'response error with control characters',
      'POST',
      '/oid4vp/auth-response',
      FORM,
      form({ state, error: 'a\u0001b' }),
    );
  }
  for (const r of forgedResponses(w.a.encKid))
    add(`response JWE ${r.label}`, 'POST', '/oid4vp/auth-response', FORM, form({ response: r.token }));
  add(
    'response with both plain and encrypted',
    'POST',
    '/oid4vp/auth-response',
    FORM,
    form({ response: 'a.b.c.d.e', vp_token: '{}', state: 'x' }),
  );
  add(
    'response vp_token not JSON',
    'POST',
    '/oid4vp/auth-response',
    FORM,
    form({ state: 'x', vp_token: '{{{' }),
  );

  for (const shape of ID_SHAPES) {
    add(`SSE ${shape.slice(0, 30)}`, 'GET', `/api/login/events?state=${shape}`);
    add(`status list ${shape.slice(0, 30)}`, 'GET', `/status-lists/${shape}`);
    add(`offer page ${shape.slice(0, 30)}`, 'GET', `/oid4vci/v1/offer/${shape}`);
  }
  add('SSE of a finished session', 'GET', `/api/login/events?state=${w.a.finishedSessionId}`);
  add('SSE state twice', 'GET', `/api/login/events?state=a&state=b`);
  add('status list, real', 'GET', `/status-lists/${w.statusListId}`);
  add('offer page, real', 'GET', `/oid4vci/v1/offer/${w.a.openOfferId}`);
  for (const method of ['GET', 'PUT', 'DELETE', 'POST', 'POST'])
    add(`nonce by ${method}`, method, '/oid4vci/v1/nonce');
  add('nonce with a body', 'POST', '/oid4vci/v1/nonce', { 'content-type': 'application/json' }, '{"x":');
  add(
    'token with a real offer but no tx_code grant',
    'POST',
    '/oid4vci/v1/token',
    FORM,
    form({ grant_type: 'authorization_code', code: w.a.openOfferId }),
  );
  return requests;
}
