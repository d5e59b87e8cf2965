import { createPublicKey } from 'node:crypto';
import fs from 'node:fs/promises';
import { decodeProtectedHeader, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSoftHsmToken, type SoftHsmToken, softHsmAvailable } from '../support/softhsm-token.js';
import { startTestService, type TestService } from '../support/test-service.js';
import { until } from '../support/until.js';
import { x509 } from '../support/x5c-validation.js';

/**
 * The token goes away in the middle of a burst of requests that need a signature (its directory is
 * moved away, so every C_ call fails as for a removed token) and comes back. While it is gone the
 * requests fail fast with a 503 in their audience's format (OAuth `temporarily_unavailable` for the
 * wallet's nonce endpoint, problem+json for the admin API), never a 500 or a stack trace, and
 * nothing is signed by any other key; readiness and the metrics say so. Once it is back, signing
 * resumes without a restart.
 */
const available = softHsmAvailable();
const BURST = 240;
const IN_FLIGHT = 8;
let token: SoftHsmToken;
let t: TestService;
let issuerJwk: Record<string, string>;

type Outcome = { what: string; status: number; type: string; body: string };

const nonce = async (): Promise<Outcome> => {
  const res = await fetch(`${t.baseUrl}/oid4vci/v1/nonce`, { method: 'POST' });
  return {
    what: 'nonce',
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: await res.text(),
  };
};
const csr = async (): Promise<Outcome> => {
  const res = await fetch(`${t.baseUrl}/admin/v1/keys/issuer/csr`, {
    method: 'POST',
    headers: { authorization: `Bearer ${t.adminToken}`, 'content-type': 'application/json' },
    body: '{}',
  });
  return {
    what: 'csr',
    status: res.status,
    type: res.headers.get('content-type') ?? '',
    body: await res.text(),
  };
};
const metric = async (name: string) => {
  const text = await (
    await fetch(`${t.baseUrl}/metrics`, { headers: { authorization: `Bearer ${'m'.repeat(32)}` } })
  ).text();
  return text.split('\n').find((l) => l.startsWith(name));
};

/** The signature of a 200 is the token's issuer key's, whatever else happened around it. */
async function signedByTheToken(o: Outcome) {
  if (o.what === 'nonce') {
    const jwt = JSON.parse(o.body).c_nonce as string;
    expect(decodeProtectedHeader(jwt).kid).toBe(await t.service.context.signer.activeKid('issuer'));
    await jwtVerify(jwt, createPublicKey({ key: issuerJwk, format: 'jwk' }));
  } else {
    const request = new x509.Pkcs10CertificateRequest(JSON.parse(o.body).csr);
    expect(await request.verify()).toBe(true);
    const spki = Buffer.from(request.publicKey.rawData);
    expect(
      createPublicKey({ key: spki, format: 'der', type: 'spki' }).export({ format: 'jwk' }),
    ).toMatchObject(issuerJwk);
  }
}

/** A 503 of the request's audience, with nothing internal in it. */
function refusedAsUnavailable(o: Outcome) {
  expect(o.status, o.body).toBe(503);
  expect(o.body).not.toMatch(/\bat .+:\d+:\d+|Pkcs11Error|CKR_/);
  if (o.what === 'nonce') {
    expect(o.type).toContain('application/json');
    expect(JSON.parse(o.body)).toMatchObject({ error: 'temporarily_unavailable' });
  } else {
    expect(o.type).toContain('application/problem+json');
    expect(JSON.parse(o.body)).toMatchObject({
      status: 503,
      type: 'urn:credservice:problem:key-store-unavailable',
    });
  }
}

beforeAll(async () => {
  if (!available) return;
  token = await createSoftHsmToken('fault');
  t = await startTestService({ redis: false, env: { ...token.env, METRICS_TOKEN: 'm'.repeat(32) } });
  const [jwk] = await t.service.context.signer.publicJwks('issuer');
  const { kty, crv, x, y } = jwk as Record<string, string>;
  issuerJwk = { kty, crv, x, y } as Record<string, string>;
}, 60_000);

afterAll(async () => {
  await t?.stop();
  await token?.remove();
});

describe.skipIf(!available)('the PKCS#11 token goes away mid-burst', () => {
  it('refuses with 503 while it is gone, then signs again without a restart', async () => {
    const away = `${token.tokenDir}-away`;
    const outcomes: Outcome[] = [];
    let sent = 0;
    let removed = false;
    // Requests keep flowing while the token directory is moved away a sixth of the way in.
    const worker = async () => {
      while (sent < BURST) {
        const n = sent++;
        if (n === BURST / 6 && !removed) {
          removed = true;
          await fs.rename(token.tokenDir, away);
        }
        outcomes.push(await (n % 2 ? csr() : nonce()));
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));

    expect(outcomes.filter((o) => ![200, 503].includes(o.status))).toEqual([]);
    const refused = outcomes.filter((o) => o.status === 503);
    expect(refused.length).toBeGreaterThan(BURST / 2);
    for (const o of refused) refusedAsUnavailable(o);
    for (const o of outcomes.filter((o) => o.status === 200)) await signedByTheToken(o);

    const ready = await (await fetch(`${t.baseUrl}/readyz`)).json();
    expect(ready).toMatchObject({ status: 'degraded', checks: { key_store: 'failed' } });
    expect(await metric('credservice_key_store_up')).toBe('credservice_key_store_up{key_store="pkcs11"} 0');

    // Back: the service reconnects by itself (C_Finalize + C_Initialize) and signs with the same key.
    await fs.rename(away, token.tokenDir);
    expect((await until(nonce, (o) => o.status === 200, 30_000)).status).toBe(200);
    for (let i = 0; i < 20; i++) {
      const o = await (i % 2 ? csr() : nonce());
      expect(o.status, o.body).toBe(200);
      await signedByTheToken(o);
    }
    expect(await (await fetch(`${t.baseUrl}/readyz`)).json()).toMatchObject({
      status: 'ok',
      checks: { key_store: 'ok' },
    });
    expect(await metric('credservice_key_store_up')).toBe('credservice_key_store_up{key_store="pkcs11"} 1');
    expect(
      await metric('credservice_signing_duration_seconds_count{key_store="pkcs11",outcome="failed"}'),
    ).toMatch(/ [1-9]\d*$/);
  }, 90_000);
});
