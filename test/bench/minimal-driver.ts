import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { CompactEncrypt, importJWK, type JWK } from 'jose';
import { holderKey } from '../support/proof-jwt.js';
import type { DatabaseCpu } from './database-cpu.js';
import { expectStatus, measure } from './harness.js';
import { type Answer, RESPONSE_ENC } from './minimal-jwe.js';
import { mdocPresentations } from './minimal-mdoc-requests.js';
import { MINIMAL_ISSUER, sha256b64, signJws } from './minimal-sd-jwt.js';
import { observe } from './observe.js';
import { spawnProbed } from './probed-process.js';

/** The `-jwe` kinds: the same presentations answered direct_post.jwt (encrypted), the others direct_post. */
export type MinimalKind =
  | 'issue'
  | 'verify'
  | 'verify-jwe'
  | 'issue-mdoc'
  | 'verify-mdoc'
  | 'verify-mdoc-jwe';

const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

const post = (url: string, contentType: string, body: string) =>
  fetch(url, { method: 'POST', headers: { 'content-type': contentType }, body });

/**
 * Starts the minimal pipeline (`minimal-pipeline.ts`) on the benchmark's database and measures it
 * the way the service is measured: same driver, same concurrency, same probe.
 */
export async function startMinimalPipeline(databaseUrl: string, db: DatabaseCpu) {
  const proc = spawnProbed('test/bench/minimal-pipeline.ts', { DATABASE_URL: databaseUrl });
  const { ready: port, encryptionKey } = await new Promise<{ ready: number; encryptionKey: JWK }>(
    (resolve, reject) => {
      proc.child.on('message', (m: unknown) => {
        if (typeof m === 'object' && m && 'ready' in m) resolve(m as { ready: number; encryptionKey: JWK });
      });
      proc.child.once('exit', () => reject(new Error('the minimal pipeline did not start')));
    },
  );
  const base = `http://127.0.0.1:${port}`;
  const side = { side: 'minimal' as const, probe: proc.probe, db };

  /** Credential requests, each with a proof of a fresh holder key, signed before the clock starts. */
  const credentialRequests = (n: number) =>
    Promise.all(
      Array.from({ length: n }, async () => {
        const key = await holderKey();
        return JSON.stringify({
          proof: await key.proof({ aud: MINIMAL_ISSUER, nonce: randomBytes(16).toString('base64url') }),
        });
      }),
    );

  /** Presentations of one credential with fresh key binding JWTs, made before the clock starts. */
  async function presentations(n: number): Promise<Required<Answer>[]> {
    const holder = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = holder.publicKey.export({ format: 'jwk' });
    const proof = signJws(
      holder.privateKey,
      { typ: 'openid4vci-proof+jwt', jwk },
      {
        aud: MINIMAL_ISSUER,
        nonce: 'n',
        iat: Math.floor(Date.now() / 1000),
      },
    );
    const res = await post(`${base}/credential`, JSON_TYPE, JSON.stringify({ proof }));
    expectStatus(res, 200, 'minimal credential');
    const credential =
      ((await res.json()) as { credentials: { credential: string }[] }).credentials[0]?.credential ?? '';
    return Array.from({ length: n }, () => {
      const nonce = randomBytes(16).toString('base64url');
      const kb = signJws(
        holder.privateKey,
        { typ: 'kb+jwt' },
        {
          aud: MINIMAL_ISSUER,
          nonce,
          iat: Math.floor(Date.now() / 1000),
          sd_hash: sha256b64(credential),
        },
      );
      return { vp_token: { employee: [`${credential}${kb}`] }, state: nonce };
    });
  }

  /** A direct_post answer: its fields in the form. */
  const asForm = (answers: Required<Answer>[]) =>
    answers.map((a) =>
      new URLSearchParams({ vp_token: JSON.stringify(a.vp_token), state: a.state }).toString(),
    );
  /**
   * A direct_post.jwt answer, encrypted as the bench's wallet (ThirdPartyHolder through
   * @openid4vc/openid4vp) encrypts the service's: ECDH-ES with a fresh ephemeral key, RESPONSE_ENC,
   * the key's kid, apu its own nonce and apv the request's, the payload { vp_token, state }.
   */
  const verifierKey = await importJWK(encryptionKey, 'ECDH-ES');
  const text = (s: string) => new TextEncoder().encode(s);
  const asJwe = (answers: Required<Answer>[]) =>
    Promise.all(
      answers.map(async (a) => {
        const jwe = await new CompactEncrypt(text(JSON.stringify(a)))
          .setProtectedHeader({ alg: 'ECDH-ES', enc: RESPONSE_ENC, kid: encryptionKey.kid ?? '' })
          .setKeyManagementParameters({
            apu: text(randomBytes(16).toString('base64url')),
            apv: text(a.state),
          })
          .encrypt(verifierKey);
        return new URLSearchParams({ response: jwe }).toString();
      }),
    );

  /** What each kind measures: its route and the requests made for it before the clock starts. */
  const kinds: Record<
    MinimalKind,
    { name: string; path: string; type: string; prepare(n: number): Promise<string[]> }
  > = {
    issue: {
      name: 'minimal: issue one SD-JWT VC',
      path: '/credential',
      type: JSON_TYPE,
      prepare: credentialRequests,
    },
    verify: {
      name: 'minimal: verify one presentation',
      path: '/present',
      type: FORM_TYPE,
      prepare: async (n) => asForm(await presentations(n)),
    },
    'verify-jwe': {
      name: 'minimal: verify one presentation (direct_post.jwt: ECDH-ES decrypted first)',
      path: '/present-jwe',
      type: FORM_TYPE,
      prepare: async (n) => asJwe(await presentations(n)),
    },
    'issue-mdoc': {
      name: 'minimal: issue one mdoc',
      path: '/credential-mdoc',
      type: JSON_TYPE,
      prepare: credentialRequests,
    },
    'verify-mdoc': {
      name: 'minimal: verify one mdoc DeviceResponse',
      path: '/present-mdoc',
      type: FORM_TYPE,
      prepare: async (n) => asForm(await mdocPresentations(base, n)),
    },
    'verify-mdoc-jwe': {
      name: 'minimal: verify one mdoc DeviceResponse (direct_post.jwt: ECDH-ES decrypted first)',
      path: '/present-mdoc-jwe',
      type: FORM_TYPE,
      prepare: async (n) => asJwe(await mdocPresentations(base, n, encryptionKey)),
    },
  };

  return {
    async measure(kind: MinimalKind, total: number, concurrency: number) {
      const { name, path, type, prepare } = kinds[kind];
      const bodies = await prepare(total);
      return observe(side, () =>
        measure(name, total, concurrency, async (i) =>
          expectStatus(await post(`${base}${path}`, type, bodies[i] ?? ''), 200, name),
        ),
      );
    },
    stop: proc.stop,
  };
}
