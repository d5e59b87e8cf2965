import { bearerAttacks } from './bearer-attacks.js';
import { formTransportVariants } from './body-variants.js';
import { ID_SHAPES } from './hostile-values.js';
import type { World } from './hostile-world.js';
import { jwtAttacks } from './jwt-attacks.js';
import type { HostileRequest } from './send.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

/**
 * Authorization requests that each lack or break something the endpoint requires, so none may start
 * a login: no client, unknown or NUL-bearing client, unregistered redirect, wrong response type,
 * scope, PKCE or nonce, request objects, repeated and malformed parameters.
 */
function authorizeQueries(w: World): string[] {
  const good = {
    client_id: w.a.secretClient.id,
    redirect_uri: 'https://rp.example/cb',
    response_type: 'code',
    scope: 'openid',
    nonce: 'n',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
  };
  const q = (over: Record<string, string | undefined>) =>
    new URLSearchParams(
      Object.entries({ ...good, ...over }).filter((e): e is [string, string] => e[1] !== undefined),
    ).toString();
  return [
    '',
    q({ client_id: undefined }),
    q({ client_id: 'rp_unknown' }),
    q({ client_id: `${w.a.secretClient.id}\u0000` }),
    `client_id=a%00b&${q({ client_id: undefined })}`,
    `client_id=%E0%A4%A&${q({ client_id: undefined })}`,
    `${q({})}&client_id=${w.b.secretClient.id}`,
    q({ redirect_uri: 'https://attacker.example/cb' }),
    q({ redirect_uri: 'javascript:alert(1)' }),
    q({ redirect_uri: 'https://rp.example/cb/../../attacker' }),
    q({ redirect_uri: undefined }),
    q({ response_type: 'token' }),
    q({ response_type: undefined }),
    q({ scope: 'profile' }),
    q({ nonce: undefined }),
    q({ nonce: 'n'.repeat(600) }),
    q({ state: 's'.repeat(2000) }),
    q({ code_challenge: undefined }),
    q({ code_challenge_method: 'plain' }),
    q({ code_challenge: 'short' }),
    q({ request: 'eyJhbGciOiJub25lIn0.e30.' }),
    q({ request_uri: 'https://attacker.example/req' }),
    q({ response_mode: 'form_post' }),
    q({ prompt: 'none' }),
    `${q({})}&scope[]=openid&nonce=x`,
  ];
}

/** The OpenID Connect provider: authorize, its completion, the token endpoint, userinfo. */
export function oidcCorpus(w: World, adminToken: string, baseUrl: string): HostileRequest[] {
  const requests: HostileRequest[] = [];
  const add = (
    label: string,
    method: string,
    path: string,
    headers: Record<string, string> = {},
    body?: string,
  ) =>
    requests.push({ label: `OIDC ${label}`, method, path, headers, ...(body === undefined ? {} : { body }) });
  const relyingParty = {
    authorization: `Basic ${Buffer.from(`${w.a.secretClient.id}:${w.a.secretClient.secret}`).toString('base64')}`,
  };
  for (const [i, query] of authorizeQueries(w).entries()) {
    add(`authorize #${i}`, 'GET', `/oauth2/authorize?${query}`);
    // The same request pushed by its relying party (RFC 9126): refused at PAR, nothing stored.
    add(`par #${i}`, 'POST', '/oauth2/par', { ...FORM, ...relyingParty }, query);
  }
  const forgedUri = encodeURIComponent('urn:ietf:params:oauth:request_uri:sign-in:forged');
  add(
    'authorize with a forged request_uri',
    'GET',
    `/oauth2/authorize?client_id=${w.a.secretClient.id}&request_uri=${forgedUri}`,
  );
  for (const shape of ID_SHAPES)
    add(`complete ${shape.slice(0, 30)}`, 'GET', `/oauth2/authorize/complete?session=${shape}`);
  add(
    'complete with a foreign session',
    'GET',
    `/oauth2/authorize/complete?session=${w.a.finishedSessionId}`,
    {
      cookie: `oidc_login_${w.a.finishedSessionId}=forged`,
    },
  );

  const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();
  const code = {
    grant_type: 'authorization_code',
    code: 'hostile-code',
    redirect_uri: 'https://rp.example/cb',
    code_verifier: 'v'.repeat(43),
  };
  const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
  const secretClient = w.a.secretClient;
  const tokenCalls: [string, Record<string, string>, Record<string, string>][] = [
    ['no grant_type', {}, { code: 'x' }],
    ['password grant', {}, { grant_type: 'password', username: 'admin', password: 'admin' }],
    [
      'client_credentials',
      { authorization: basic(secretClient.id, secretClient.secret) },
      { grant_type: 'client_credentials' },
    ],
    ['forged code, right secret', { authorization: basic(secretClient.id, secretClient.secret) }, code],
    ['wrong secret', { authorization: basic(secretClient.id, 'wrong') }, code],
    ["another client's secret", { authorization: basic(w.b.secretClient.id, secretClient.secret) }, code],
    ['malformed Basic', { authorization: 'Basic %%%' }, code],
    ['Basic with NUL', { authorization: basic(`${secretClient.id}\u0000`, secretClient.secret) }, code],
    ['Basic with bad escapes', { authorization: basic('%E0%A4%A', '%') }, code],
    [
      'two methods',
      { authorization: basic(secretClient.id, secretClient.secret) },
      { ...code, client_secret: 'x' },
    ],
    ['secret in the form, wrong', {}, { ...code, client_id: secretClient.id, client_secret: 'wrong' }],
    [
      'tenant and its integrator token, forged code',
      {},
      { ...code, client_id: w.a.id, client_secret: w.a.integratorToken },
    ],
    [
      "tenant with another tenant's token",
      {},
      { ...code, client_id: w.a.id, client_secret: w.b.integratorToken },
    ],
    ['assertion of the wrong type', {}, { ...code, client_assertion_type: 'x', client_assertion: 'a.b.c' }],
  ];
  for (const [label, headers, fields] of tokenCalls)
    add(`token: ${label}`, 'POST', '/oauth2/token', { ...FORM, ...headers }, form(fields));
  const client = w.a.jwtClient;
  const assertions = jwtAttacks({
    claims: { iss: client.id, sub: client.id, aud: `${baseUrl}/oauth2/token` },
    serviceJwk: w.issuerJwk,
    ownKey: { key: client.key, kid: client.jwk.kid as string },
  }).filter((a) => a.label !== 'trusted key, wrong typ'); // RFC 7523 does not type client assertions
  for (const a of assertions) {
    const fields = {
      ...code,
      client_id: client.id,
      client_assertion_type: ASSERTION_TYPE,
      client_assertion: a.token,
    };
    add(`token: assertion ${a.label}`, 'POST', '/oauth2/token', FORM, form(fields));
  }
  for (const v of formTransportVariants({ ...code, client_id: secretClient.id, client_secret: 'wrong' })) {
    add(`token: wrapped ${v.label}`, 'POST', '/oauth2/token', v.headers, v.body as string);
    Object.assign(requests.at(-1) as HostileRequest, { expect: v.expect });
  }
  for (const a of bearerAttacks('userinfo', w, adminToken)) {
    add(`userinfo GET ${a.label}`, 'GET', '/oauth2/userinfo', { authorization: a.header });
    add(`userinfo POST ${a.label}`, 'POST', '/oauth2/userinfo', { authorization: a.header, ...FORM }, 'x=1');
  }
  return requests;
}
