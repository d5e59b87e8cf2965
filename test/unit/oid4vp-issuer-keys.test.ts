import { describe, expect, it } from 'vitest';
import {
  jwtVcIssuerMetadataUrl,
  trustedIssuersFromMetadata,
  verifyVpToken,
} from '../../server/oid4vp/verification/index.js';
import {
  context,
  employeeQuery,
  ISSUER,
  issue,
  issuerKey,
  NOW,
  present,
  statusKey,
} from '../support/oid4vp-fixtures.js';

/** trustedIssuersFromMetadata: an allow-list of issuers whose keys come from /.well-known/jwt-vc-issuer. */

const metadata = { issuer: ISSUER, jwks: { keys: [issuerKey.publicJwk, statusKey.publicJwk] } };

function server(documents: Record<string, unknown>) {
  const calls: string[] = [];
  return {
    calls,
    fetchJson: async (url: string) => {
      calls.push(url);
      if (!(url in documents)) throw new Error(`404 ${url}`);
      return documents[url];
    },
  };
}

describe('jwtVcIssuerMetadataUrl', () => {
  it('puts the well-known segment between host and path', () => {
    expect(jwtVcIssuerMetadataUrl('https://issuer.example')).toBe(
      'https://issuer.example/.well-known/jwt-vc-issuer',
    );
    expect(jwtVcIssuerMetadataUrl('https://issuer.example/')).toBe(
      'https://issuer.example/.well-known/jwt-vc-issuer',
    );
    expect(jwtVcIssuerMetadataUrl('https://example.com:8443/tenants/acme')).toBe(
      'https://example.com:8443/.well-known/jwt-vc-issuer/tenants/acme',
    );
  });
});

describe('trustedIssuersFromMetadata', () => {
  it('resolves allowed issuers through their metadata, and caches the keys', async () => {
    let t = NOW.getTime();
    const { calls, fetchJson } = server({ 'https://issuer.example/.well-known/jwt-vc-issuer': metadata });
    const trusted = trustedIssuersFromMetadata([ISSUER], fetchJson, {
      now: () => new Date(t),
      cacheSeconds: 60,
    });
    expect(await trusted(ISSUER)).toEqual(metadata.jwks.keys);
    expect(await trusted(ISSUER)).toEqual(metadata.jwks.keys);
    expect(calls).toHaveLength(1);
    t += 61_000;
    await trusted(ISSUER);
    expect(calls).toHaveLength(2);
    expect(await trusted('https://rogue.example')).toBeUndefined();
    expect(calls).toHaveLength(2);
  });

  it('follows jwks_uri', async () => {
    const { fetchJson } = server({
      'https://issuer.example/.well-known/jwt-vc-issuer': {
        issuer: ISSUER,
        jwks_uri: 'https://keys.example/jwks',
      },
      'https://keys.example/jwks': metadata.jwks,
    });
    expect(await trustedIssuersFromMetadata([ISSUER], fetchJson)(ISSUER)).toEqual(metadata.jwks.keys);
  });

  it('refuses metadata naming another issuer, or with both or neither key sources, and retries after a failure', async () => {
    const url = 'https://issuer.example/.well-known/jwt-vc-issuer';
    const bad = [
      { ...metadata, issuer: 'https://rogue.example' },
      { ...metadata, jwks_uri: 'https://keys.example/jwks' },
      { issuer: ISSUER },
      { issuer: ISSUER, jwks: { keys: 'none' } },
      'not an object',
    ];
    for (const document of bad)
      await expect(
        trustedIssuersFromMetadata([ISSUER], server({ [url]: document }).fetchJson)(ISSUER),
      ).rejects.toThrow();
    const documents: Record<string, unknown> = {};
    const { calls, fetchJson } = server(documents);
    const trusted = trustedIssuersFromMetadata([ISSUER], fetchJson);
    await expect(trusted(ISSUER)).rejects.toThrow('404');
    documents[url] = metadata;
    expect(await trusted(ISSUER)).toEqual(metadata.jwks.keys);
    expect(calls).toHaveLength(2);
  });

  it('plugs into verifyVpToken: trusted issuers verify, unreachable metadata is untrusted', async () => {
    const vp = await present(await issue());
    const { fetchJson } = server({ 'https://issuer.example/.well-known/jwt-vc-issuer': metadata });
    const trusted = trustedIssuersFromMetadata([ISSUER], fetchJson);
    const result = await verifyVpToken(
      { employee: [vp] },
      employeeQuery(),
      context({ trustedIssuers: trusted }),
    );
    expect(result.credentials[0]?.issuer).toBe(ISSUER);
    const down = trustedIssuersFromMetadata([ISSUER], server({}).fetchJson);
    await expect(
      verifyVpToken({ employee: [vp] }, employeeQuery(), context({ trustedIssuers: down })),
    ).rejects.toMatchObject({
      code: 'untrusted_issuer',
    });
  });
});
