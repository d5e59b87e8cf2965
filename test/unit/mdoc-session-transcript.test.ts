import { createHash } from 'node:crypto';
import { cborEncode, SessionTranscript } from '@owf/mdoc';
import type { JWK } from 'jose';
import { describe, expect, it } from 'vitest';
import {
  annexCSessionTranscript,
  jwkThumbprintBytes,
  oid4vpDcApiSessionTranscript,
  oid4vpSessionTranscript,
} from '../../server/formats/mso-mdoc/session-transcript.js';
import { mdocCrypto } from '../support/mdoc-holder.js';

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

/** The JWK of OpenID4VP 1.0 B.2.6.1 and B.2.6.2, with the thumbprint its examples use. */
const specJwk: JWK = {
  kty: 'EC',
  crv: 'P-256',
  x: 'DxiH5Q4Yx3UrukE2lWCErq8N8bqC9CHLLrAwLz5BmE0',
  y: 'XtLM4-3h5o3HUH0MHVJV0kyq0iBlrBwlh8qEDMZ4-Pc',
  use: 'enc',
  alg: 'ECDH-ES',
  kid: '1',
};
const specNonce = 'exc7gBkxjx1rdc9udRrveKvSsJIq80avlXeLHhGwqtA';

describe('SessionTranscript of OpenID4VP 1.0 B.2.6 and ISO 18013-7 Annex C', () => {
  it('computes the JWK thumbprint of the examples', () => {
    expect(hex(jwkThumbprintBytes(specJwk))).toBe(
      '4283ec927ae0f208daaa2d026a814f2b22dca52cf85ffa8f3f8626c6bd669047',
    );
    expect(() => jwkThumbprintBytes({ kty: 'RSA', n: 'x', e: 'AQAB' })).toThrow(TypeError);
  });

  it('reproduces the B.2.6.1 example (redirects, encrypted response) byte for byte', () => {
    const transcript = oid4vpSessionTranscript({
      clientId: 'x509_san_dns:example.com',
      nonce: specNonce,
      responseEncryptionKey: specJwk,
      responseUri: 'https://example.com/response',
    });
    expect(hex(transcript)).toBe(
      '83f6f682714f70656e494434565048616e646f7665725820048bc053c00442af9b8eed494cefdd9d95240d254b046b11b68013722aad38ac',
    );
  });

  it('reproduces the B.2.6.2 example (Digital Credentials API, encrypted response) byte for byte', () => {
    const transcript = oid4vpDcApiSessionTranscript({
      origin: 'https://example.com',
      nonce: specNonce,
      responseEncryptionKey: specJwk,
    });
    expect(hex(transcript)).toBe(
      '83f6f682764f70656e4944345650444341504948616e646f7665725820fbece366f4212f9762c74cfdbf83b8c69e371d5d68cea09cb4c48ca6daab761a',
    );
  });

  it('agrees with @owf/mdoc forOid4Vp and forOid4VpDcApi, with and without encryption', async () => {
    const thumbprint = jwkThumbprintBytes(specJwk);
    for (const encrypted of [false, true]) {
      const redirect = {
        clientId: 'x509_hash:Uvo3HtuIxuhC92rShpgqcT3YXwrqRxWEviRiA0OZszk',
        nonce: 'n-0S6_WzA2Mj',
        responseUri: 'https://verifier.example/oid4vp/response/5c1f',
      };
      const theirs = await SessionTranscript.forOid4Vp(
        { ...redirect, ...(encrypted ? { jwkThumbprint: thumbprint } : {}) },
        mdocCrypto,
      );
      expect(
        hex(
          oid4vpSessionTranscript({ ...redirect, ...(encrypted ? { responseEncryptionKey: specJwk } : {}) }),
        ),
      ).toBe(hex(theirs.encode()));

      const dcApi = { origin: 'https://verifier.example', nonce: 'n-0S6_WzA2Mj' };
      const theirsDcApi = await SessionTranscript.forOid4VpDcApi(
        { ...dcApi, ...(encrypted ? { jwkThumbprint: thumbprint } : {}) },
        mdocCrypto,
      );
      expect(
        hex(oid4vpDcApiSessionTranscript({ ...dcApi, responseEncryptionKey: encrypted ? specJwk : null })),
      ).toBe(hex(theirsDcApi.encode()));
    }
  });

  it('makes the Annex C dcapi handover: SHA-256 of [EncryptionInfo base64url, origin]', () => {
    const encryptionInfo = 'gmVkY2FwaaJlbm9uY2VQ';
    const origin = 'https://verifier.example';
    const hash = createHash('sha256')
      .update(cborEncode([encryptionInfo, origin]))
      .digest();
    expect(hex(annexCSessionTranscript({ encryptionInfo, origin }))).toBe(
      hex(cborEncode([null, null, ['dcapi', new Uint8Array(hash)]])),
    );
    expect(hex(annexCSessionTranscript({ encryptionInfo, origin }))).toMatch(/^83f6f6826564636170695820/);
  });
});
