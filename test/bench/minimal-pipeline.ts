import { createPublicKey, generateKeyPairSync, type JsonWebKey, randomUUID } from 'node:crypto';
import http from 'node:http';
import { deflateSync } from 'node:zlib';
import pg from 'pg';
import { employeePayload } from '../support/fixtures.js';
import { MINIMAL_APPLICATION } from './database-cpu.js';
import { type Answer, responseDecrypter } from './minimal-jwe.js';
import { startMdocPipeline } from './minimal-mdoc-pipeline.js';
import {
  digestsIn,
  discloseEmployee,
  MINIMAL_ISSUER,
  sha256b64,
  signJws,
  verifyJws,
} from './minimal-sd-jwt.js';

/**
 * The machine's limit, run as a process of its own beside the service (`minimal-driver.ts` starts
 * it). POST /credential: one proof JWT checked, one SD-JWT VC with disclosures signed, one INSERT.
 * POST /present: a presentation checked with two signatures (issuer, key binding), every
 * disclosure and sd_hash, and its status read from the status list token, whose signature is checked
 * once per ttl as the service does. POST /credential-mdoc and /present-mdoc: the same for an
 * ISO mdoc (minimal-mdoc-pipeline.ts). POST /present-jwe and /present-mdoc-jwe: the direct_post.jwt
 * answers, decrypted first (minimal-jwe.ts). Nothing else: no framework, no ORM, no audit.
 */
const LIST_SIZE = 131_072;

const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: 10,
  application_name: MINIMAL_APPLICATION,
});
await pool.query(`create table if not exists bench_minimal_credential (
  id uuid primary key, status_idx int not null, holder_jwk jsonb not null, issued_at timestamptz not null)`);

const issuerKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const statusKey = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const statusBits = new Uint8Array(LIST_SIZE / 8);
const statusUri = `${MINIMAL_ISSUER}/status/1`;
const statusListToken = signJws(
  statusKey.privateKey,
  { typ: 'statuslist+jwt' },
  {
    sub: statusUri,
    iat: Math.floor(Date.now() / 1000),
    status_list: { bits: 1, lst: deflateSync(statusBits).toString('base64url') },
  },
);
let nextIdx = Math.floor(Math.random() * 1000);
/** Read once per ttl, as the service's status list cache reads it: signature checked, then reused. */
const STATUS_LIST_TTL_MS = 300_000;
let statusListReadAt = 0;
function statusListValid(): boolean {
  if (Date.now() - statusListReadAt < STATUS_LIST_TTL_MS) return true;
  if (!verifyJws(statusListToken, statusKey.publicKey)) return false;
  statusListReadAt = Date.now();
  return true;
}
const responses = responseDecrypter('minimal-verifier');
const mdoc = await startMdocPipeline(LIST_SIZE, responses.thumbprint);

/** The verified proof JWT of a credential request, else undefined. */
function checkProof(body: { proof?: string }) {
  const proof = verifyJws(body.proof ?? '', (header) => {
    if (header.typ !== 'openid4vci-proof+jwt') throw new Error('typ');
    return createPublicKey({ key: header.jwk as JsonWebKey, format: 'jwk' });
  });
  const now = Math.floor(Date.now() / 1000);
  const p = proof?.payload;
  if (!p || p.aud !== MINIMAL_ISSUER || typeof p.nonce !== 'string' || Math.abs(now - p.iat) > 300)
    return undefined;
  return proof;
}

function issue(body: { proof?: string }) {
  const proof = checkProof(body);
  if (!proof) return undefined;
  const now = Math.floor(Date.now() / 1000);
  const idx = nextIdx++ % LIST_SIZE;
  const { payload, disclosures } = discloseEmployee(employeePayload());
  const claims = {
    ...payload,
    iss: MINIMAL_ISSUER,
    vct: `${MINIMAL_ISSUER}/employee`,
    iat: now,
    exp: now + 31_536_000,
    cnf: { jwk: proof.header.jwk },
    status: { status_list: { idx, uri: statusUri } },
  };
  const jwt = signJws(issuerKey.privateKey, { typ: 'dc+sd-jwt', kid: 'issuer' }, claims);
  return { credential: `${jwt}~${disclosures.join('~')}~`, idx, jwk: proof.header.jwk };
}

function issueMdoc(body: { proof?: string }) {
  const proof = checkProof(body);
  if (!proof) return undefined;
  const idx = nextIdx++ % LIST_SIZE;
  return { credential: mdoc.issue(proof.header.jwk, idx), idx, jwk: proof.header.jwk };
}

function present({ vp_token }: Answer): boolean {
  const presentation = Object.values(vp_token ?? {})[0]?.[0] ?? '';
  const parts = presentation.split('~');
  const kbJwt = parts.pop() ?? '';
  const issued = verifyJws(parts[0] ?? '', issuerKey.publicKey);
  if (!issued) return false;
  const committed = digestsIn(issued.payload);
  if (
    !parts
      .slice(1)
      .filter(Boolean)
      .every((d) => committed.has(sha256b64(d)))
  )
    return false;
  const kb = verifyJws(kbJwt, createPublicKey({ key: issued.payload.cnf.jwk, format: 'jwk' }));
  if (!kb || kb.payload.sd_hash !== sha256b64(`${parts.join('~')}~`) || kb.payload.aud !== MINIMAL_ISSUER)
    return false;
  const idx = issued.payload.status.status_list.idx as number;
  return statusListValid() && ((statusBits[idx >> 3] ?? 0) >> (idx & 7)) % 2 === 0;
}

/** The presentation routes: an SD-JWT VC or an mdoc, answered in the clear or encrypted. */
const presenters = {
  '/present': present,
  '/present-jwe': present,
  '/present-mdoc': mdoc.present,
  '/present-mdoc-jwe': mdoc.present,
} as const;

const server = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', async () => {
    const text = Buffer.concat(chunks).toString('utf8');
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    try {
      if (req.url === '/credential' || req.url === '/credential-mdoc') {
        const request = JSON.parse(text);
        const issued = req.url === '/credential' ? issue(request) : issueMdoc(request);
        if (!issued) return reply(400, { error: 'invalid_proof' });
        await pool.query({
          name: 'insert-credential',
          text: 'insert into bench_minimal_credential (id, status_idx, holder_jwk, issued_at) values ($1, $2, $3, now())',
          values: [randomUUID(), issued.idx, issued.jwk],
        });
        return reply(200, { credentials: [{ credential: issued.credential }] });
      }
      const presenter = presenters[req.url as keyof typeof presenters];
      if (presenter) {
        const form = new URLSearchParams(text);
        const encrypted = req.url?.endsWith('-jwe') ?? false;
        // direct_post.jwt: `response` is a JWE holding { vp_token, state }; direct_post: the form's fields.
        const answer = encrypted
          ? responses.decrypt(form.get('response') ?? '')
          : { vp_token: JSON.parse(form.get('vp_token') ?? '{}'), state: form.get('state') ?? '' };
        return answer && presenter(answer, encrypted)
          ? reply(200, {})
          : reply(400, { error: 'invalid_presentation' });
      }
      reply(404, {});
    } catch (e) {
      reply(500, { error: (e as Error).message });
    }
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  process.send?.({
    ready: typeof address === 'object' && address ? address.port : 0,
    encryptionKey: responses.publicJwk,
  });
});
process.on('SIGTERM', () => {
  server.close(() => pool.end().then(() => process.exit(0)));
  server.closeAllConnections();
});
