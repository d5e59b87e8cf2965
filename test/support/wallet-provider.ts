import { webcrypto } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { type JWK, SignJWT } from 'jose';
import { makeTestCa } from './test-ca.js';

export interface AttestationOptions {
  sub?: string;
  exp?: number;
  /** Replace the x5c chain (e.g. another provider's). */
  x5c?: string[];
  typ?: string;
}

/** A key attestation's claims and header, each overridable for negative tests (null: left out). */
export interface KeyAttestationOptions {
  nonce?: string;
  iat?: number;
  /** Default: an hour from now; null leaves `exp` out. */
  exp?: number | null;
  keyStorage?: string[];
  userAuthentication?: string[];
  x5c?: string[];
  typ?: string;
}

/**
 * A wallet provider as a test makes it: a CA (root and issuing CA, @peculiar/x509) and an
 * attestation signing key with a leaf from that CA, which signs client attestations
 * (`oauth-client-attestation+jwt`) for wallet instance keys and key attestations
 * (`key-attestation+jwt`, OID4VCI 1.0 appendix D) for holder keys, `x5c` = leaf and issuing CA.
 */
export async function makeWalletProvider(name = 'Wallet Provider') {
  const ca = await makeTestCa(name);
  const keys = (await webcrypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, false, [
    'sign',
    'verify',
  ])) as webcrypto.CryptoKeyPair;
  const leaf = await ca.issueKey(keys.publicKey, { subject: `CN=${name} attestation signer` });
  const x5c = [leaf, ca.intermediate].map((c) => Buffer.from(c.rawData).toString('base64'));
  return {
    rootPem: ca.root.toString('pem'),
    /** The root as an x5c entry: HAIP keeps it out of x5c, a negative test puts it in. */
    rootX5c: Buffer.from(ca.root.rawData).toString('base64'),
    x5c,
    /** A client attestation of `instanceJwk` for the wallet `sub` (default: one wallet app for all instances). */
    attest: (instanceJwk: JWK, o: AttestationOptions = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iss: `https://${name.toLowerCase().replaceAll(' ', '-')}.example`,
        sub: o.sub ?? 'https://wallet.example/app',
        iat: now,
        exp: o.exp ?? now + 3600,
        cnf: { jwk: instanceJwk },
      })
        .setProtectedHeader({ alg: 'ES256', typ: o.typ ?? 'oauth-client-attestation+jwt', x5c: o.x5c ?? x5c })
        .sign(keys.privateKey);
    },
    /** A key attestation of `attestedKeys`, as the provider's key storage would assert them. */
    attestKeys: (attestedKeys: JWK[], o: KeyAttestationOptions = {}) => {
      const now = Math.floor(Date.now() / 1000);
      const exp = o.exp === undefined ? now + 3600 : o.exp;
      return new SignJWT({
        iss: `https://${name.toLowerCase().replaceAll(' ', '-')}.example`,
        iat: o.iat ?? now,
        ...(exp === null ? {} : { exp }),
        attested_keys: attestedKeys,
        ...(o.keyStorage ? { key_storage: o.keyStorage } : {}),
        ...(o.userAuthentication ? { user_authentication: o.userAuthentication } : {}),
        ...(o.nonce ? { nonce: o.nonce } : {}),
      })
        .setProtectedHeader({ alg: 'ES256', typ: o.typ ?? 'key-attestation+jwt', x5c: o.x5c ?? x5c })
        .sign(keys.privateKey);
    },
  };
}

/**
 * A wallet provider with its root written to a PEM file, the path WALLET_PROVIDER_TRUST_ANCHORS
 * takes; `remove` deletes the file.
 */
export async function walletProviderWithAnchorsFile() {
  const provider = await makeWalletProvider();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'wallet-providers-'));
  const anchors = path.join(dir, 'roots.pem');
  await fs.writeFile(anchors, provider.rootPem);
  return { provider, anchors, remove: () => fs.rm(dir, { recursive: true, force: true }) };
}
