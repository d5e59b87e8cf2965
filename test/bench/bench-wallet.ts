import { randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { dpopKey } from '../support/dpop-proof.js';
import type { makeWalletProvider } from '../support/wallet-provider.js';

export type WalletProvider = Awaited<ReturnType<typeof makeWalletProvider>>;

/** What a wallet sends to the issuer: a form (PAR, token) or JSON (credential). */
export type WalletBody = { form: Record<string, string> } | { json: unknown };

/**
 * A wallet as the issuer's authorization server and credential endpoint see it: a plain one sends
 * Bearer tokens; a DPoP one signs a fresh proof per request (and, attested, authenticates with its
 * wallet attestation), so that the figures include every check those headers cost the service.
 */
export interface BenchWallet {
  /** The client_id it sends: with an attestation, the attestation's `sub` (the service requires it). */
  clientId: string;
  post(path: string, body: WalletBody, accessToken?: string): Promise<Response>;
  /** POST /oid4vci/v1/nonce: a c_nonce (a DPoP wallet keeps the DPoP-Nonce that comes beside it). */
  cNonce(): Promise<string>;
}

async function fetchCNonce(issuer: string, note: (res: Response) => void = () => undefined) {
  const res = await fetch(`${issuer}/oid4vci/v1/nonce`, { method: 'POST' });
  note(res);
  return ((await res.json()) as { c_nonce: string }).c_nonce;
}

const encode = (body: WalletBody) =>
  'form' in body
    ? { type: 'application/x-www-form-urlencoded', text: new URLSearchParams(body.form).toString() }
    : { type: 'application/json', text: JSON.stringify(body.json) };

export function plainWallet(issuer: string): BenchWallet {
  return {
    clientId: 'bench-wallet',
    post: (path, body, accessToken) => {
      const { type, text } = encode(body);
      const headers: Record<string, string> = { 'content-type': type };
      if (accessToken) headers.authorization = `Bearer ${accessToken}`;
      return fetch(`${issuer}${path}`, { method: 'POST', headers, body: text });
    },
    cNonce: () => fetchCNonce(issuer),
  };
}

/** A wallet instance key attested by `provider` once (before the clock: wallets hold one for long). */
export async function attestedInstance(provider: WalletProvider) {
  const { privateKey, publicKey } = await generateKeyPair('ES256');
  const { kty, crv, x, y } = await exportJWK(publicKey);
  const attestation = await provider.attest({ kty, crv, x, y } as JWK);
  return {
    sub: 'https://wallet.example/app',
    /** attest_jwt_client_auth: the attestation and a PoP with a new jti, for one request. */
    headers: async (aud: string) => ({
      'oauth-client-attestation': attestation,
      'oauth-client-attestation-pop': await new SignJWT({
        aud,
        jti: randomBytes(16).toString('base64url'),
        iat: Math.floor(Date.now() / 1000),
      })
        .setProtectedHeader({ alg: 'ES256', typ: 'oauth-client-attestation-pop+jwt' })
        .sign(privateKey),
    }),
  };
}

/** True when the answer is RFC 9449's request to repeat with the server's nonce. */
const askedForNonce = async (res: Response) =>
  res.status === 400 &&
  res.headers.has('dpop-nonce') &&
  ((await res.clone().json()) as { error?: string }).error === 'use_dpop_nonce';

/**
 * A fresh DPoP key per flow. Its first DPoP request has no nonce yet and is answered
 * use_dpop_nonce, then repeated once with it, as wallet libraries (@openid4vc) do: a fresh wallet
 * pays that round trip, so the figure does too. Every later answer's DPoP-Nonce is carried on.
 */
export async function dpopWallet(
  issuer: string,
  instance?: Awaited<ReturnType<typeof attestedInstance>>,
): Promise<BenchWallet> {
  const key = await dpopKey();
  let nonce: string | undefined;
  const noteNonce = (res: Response) => {
    nonce = res.headers.get('dpop-nonce') ?? nonce;
  };
  const send = async (path: string, body: WalletBody, accessToken?: string) => {
    const { type, text } = encode(body);
    const url = `${issuer}${path}`;
    const headers: Record<string, string> = {
      'content-type': type,
      dpop: await key.proof({
        htm: 'POST',
        htu: url,
        ...(nonce ? { nonce } : {}),
        ...(accessToken ? { accessToken } : {}),
      }),
      // Client authentication is for the authorization server (PAR, token), not the credential endpoint.
      ...(instance && !accessToken ? await instance.headers(issuer) : {}),
    };
    if (accessToken) headers.authorization = `DPoP ${accessToken}`;
    const res = await fetch(url, { method: 'POST', headers, body: text });
    noteNonce(res);
    return res;
  };
  return {
    clientId: instance?.sub ?? 'bench-wallet',
    cNonce: () => fetchCNonce(issuer, noteNonce),
    post: async (path, body, accessToken) => {
      const first = await send(path, body, accessToken);
      if (!(await askedForNonce(first))) return first;
      await first.body?.cancel(); // read through its clone: frees the connection for the retry
      return send(path, body, accessToken);
    },
  };
}
