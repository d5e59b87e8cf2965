import { beforeAll, describe, expect, it } from 'vitest';
import { ChainError } from '../../server/keys/chain-error.js';
import { type ListedCertificateRow, trustOf } from '../../server/trust/trust.js';
import { trustChain } from '../../server/trust/trust-chain.js';
import { type IssuerPki, issuerPki } from '../support/issuer-x509.js';

/** The one trust decision for x5c chains: static anchors, then what trust sources list, for what. */
let pki: IssuerPki;
let other: IssuerPki;
const now = { now: Math.floor(Date.now() / 1000), skewSeconds: 60 };
const ISSUERS = ['pid_provider', 'eaa_provider'];

beforeAll(async () => {
  [pki, other] = await Promise.all([issuerPki('pid.example', 'PID'), issuerPki('other.example', 'Other')]);
});

const listed = (certificate: string, row: Partial<ListedCertificateRow> = {}): ListedCertificateRow => ({
  certificate,
  source: 'source-1',
  entity: 'PID Provider',
  serviceType: 'pid_provider',
  ...row,
});
const x5c = () => [pki.leaf.base64, pki.intermediate.base64];
const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (e) {
    if (e instanceof ChainError) return { code: e.code, message: e.message };
    throw e;
  }
  throw new Error('trusted');
};

describe('trustChain', () => {
  it('trusts by a static anchor first, and names it', () => {
    const trust = trustOf([pki.root.base64], [listed(pki.root.base64)]);
    expect(trustChain(x5c(), trust, { serviceTypes: ISSUERS }, now).trust).toMatchObject({ method: 'x509' });
  });

  it('trusts by a listed CA certificate, naming the source, entity and service type', () => {
    const { chain, trust } = trustChain(
      x5c(),
      trustOf([], [listed(pki.root.base64)]),
      { serviceTypes: ISSUERS, vct: 'urn:eudi:pid:1' },
      now,
    );
    expect(trust).toEqual({
      method: 'trusted_list',
      source: 'source-1',
      entity: 'PID Provider',
      serviceType: 'pid_provider',
    });
    expect(chain.leaf.sha256).toBe(trustOf([pki.leaf.base64]).anchors[0]?.sha256);
  });

  it('trusts a listed signing certificate presented as the leaf', () => {
    const { trust } = trustChain(
      [pki.leaf.base64],
      trustOf([], [listed(pki.leaf.base64)]),
      { serviceTypes: ISSUERS },
      now,
    );
    expect(trust).toMatchObject({ method: 'trusted_list', entity: 'PID Provider' });
  });

  it('refuses a chain its source lists for another service type, saying so', () => {
    const trust = trustOf([], [listed(pki.root.base64, { serviceType: 'wallet_provider' })]);
    expect(refusal(() => trustChain(x5c(), trust, { serviceTypes: ISSUERS }, now))).toMatchObject({
      code: 'certificate_untrusted',
      message: expect.stringContaining('as wallet_provider'),
    });
  });

  it('holds a source to its credential types: vct and doctype lists, and W3C credentials', () => {
    const trust = trustOf([], [listed(pki.root.base64, { vct: ['urn:eudi:pid:1'] })]);
    expect(trustChain(x5c(), trust, { serviceTypes: ISSUERS, vct: 'urn:eudi:pid:1' }, now).trust.method).toBe(
      'trusted_list',
    );
    expect(
      refusal(() => trustChain(x5c(), trust, { serviceTypes: ISSUERS, vct: 'urn:other' }, now)).message,
    ).toContain('vct urn:other');
    expect(
      refusal(() =>
        trustChain(x5c(), trust, { serviceTypes: ISSUERS, doctype: 'org.iso.18013.5.1.mDL' }, now),
      ).code,
    ).toBe('certificate_untrusted');
    expect(
      refusal(() => trustChain(x5c(), trust, { serviceTypes: ISSUERS, credential: true }, now)).code,
    ).toBe('certificate_untrusted');
    // A status list or an attestation is no credential type: the service type alone decides.
    expect(trustChain(x5c(), trust, { serviceTypes: ISSUERS }, now).trust.method).toBe('trusted_list');
  });

  it('refuses a chain nothing leads to, and reports a broken chain’s own reason', () => {
    const trust = trustOf([], [listed(pki.root.base64)]);
    expect(
      refusal(() =>
        trustChain([other.leaf.base64, other.intermediate.base64], trust, { serviceTypes: ISSUERS }, now),
      ).code,
    ).toBe('certificate_untrusted');
    const later = { now: now.now + 20 * 365 * 86_400, skewSeconds: 60 };
    expect(refusal(() => trustChain(x5c(), trust, { serviceTypes: ISSUERS }, later)).code).toBe(
      'certificate_expired',
    );
  });
});
