import { createHash, randomBytes } from 'node:crypto';
import { Openid4vciClient, setGlobalConfig } from '@openid4vc/openid4vci-next';
import {
  CompactEncrypt,
  calculateJwkThumbprint,
  compactDecrypt,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  type JWK,
  SignJWT,
} from 'jose';

/**
 * A third-party holder on @openid4vc/openid4vci 0.5.0-alpha (aliased `openid4vci-next`), the first
 * release that asks for encrypted credential responses (`credentialResponseEncryption`) and opens
 * them through its `decryptJwe` callback, checking that an answer it asked to be encrypted is
 * `application/jwt`. It has no credential REQUEST encryption: it always POSTs plain JSON. Section 8.2
 * makes our issuer refuse a plain request that asks for an encrypted response, so the one step the
 * library lacks is done here, in the `fetch` it is given (see #fetch); everything else is its own.
 */

// The alpha has its own nested @openid4vc/utils, hence its own global config: allow the loopback http:.
setGlobalConfig({ allowInsecureUrls: true });

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;
type Callbacks = ConstructorParameters<typeof Openid4vciClient>[0]['callbacks'];
export type NextIssuerMetadata = Awaited<ReturnType<Openid4vciClient['resolveIssuerMetadata']>>;

/** One exchange with a credential or deferred credential endpoint, as it was on the wire. */
export interface WireExchange {
  url: string;
  requestType: string | null;
  status: number;
  responseType: string | null;
  responseBody: string;
}

export class EncryptingThirdPartyWallet {
  /** Signing keys of proofs by JWK thumbprint; response decryption keys by their kid. */
  readonly #signing = new Map<string, KeyPair>();
  readonly #decrypting = new Map<string, KeyPair>();
  /** Learned from the issuer metadata: where credential requests go and the key to encrypt them to. */
  #credentialEndpoints = new Set<string>();
  #issuerRequestKey: JWK | undefined;
  /** Off: the library's request goes out as it made it, plain JSON (to show what the issuer does with it). */
  encryptRequests = true;
  readonly exchanges: WireExchange[] = [];

  /**
   * The step the library lacks (OID4VCI 1.0 section 10 request encryption): its JSON body to a
   * credential or deferred credential endpoint becomes a compact JWE (ECDH-ES, A128GCM) to the
   * issuer's advertised `credential_request_encryption` key, sent as `application/jwt`. The response
   * is handed back untouched; the library decides what to make of it.
   */
  readonly #fetch: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!this.#credentialEndpoints.has(url)) return fetch(input, init);
    const headers = new Headers(init?.headers);
    let body = init?.body;
    if (this.encryptRequests && this.#issuerRequestKey && typeof body === 'string') {
      body = await new CompactEncrypt(new TextEncoder().encode(body))
        .setProtectedHeader({ alg: 'ECDH-ES', enc: 'A128GCM', kid: this.#issuerRequestKey.kid as string })
        .encrypt(this.#issuerRequestKey);
      headers.set('content-type', 'application/jwt');
    }
    const res = await fetch(input, { ...init, headers, ...(body !== undefined ? { body } : {}) });
    this.exchanges.push({
      url,
      requestType: headers.get('content-type'),
      status: res.status,
      responseType: res.headers.get('content-type'),
      responseBody: await res.clone().text(),
    });
    return res;
  };

  readonly #callbacks: Callbacks = {
    fetch: this.#fetch,
    hash: (data, alg) => {
      if (alg !== 'sha-256') throw new Error(`unsupported hash ${alg}`);
      return createHash('sha256').update(data).digest();
    },
    generateRandom: (n) => randomBytes(n),
    // Anonymous client (pre-authorized code flow): nothing to add to the token request.
    clientAuthentication: () => {},
    signJwt: async (signer, { header, payload }) => {
      if (signer.method !== 'jwk') throw new Error(`signer method ${signer.method} is not supported`);
      const pair = this.#signing.get(await calculateJwkThumbprint(signer.publicJwk as JWK));
      if (!pair) throw new Error('no private key for the requested signer');
      const jwt = await new SignJWT(payload)
        .setProtectedHeader({ ...header, alg: signer.alg })
        .sign(pair.privateKey);
      return { jwt, signerJwk: signer.publicJwk };
    },
    // Called by the library for every application/jwt credential response; the key is the one whose kid the JWE names.
    decryptJwe: (jwe) => this.decrypt(jwe),
  };

  readonly client = new Openid4vciClient({ callbacks: this.#callbacks });

  /** Redeems an offer's pre-authorized code with the tx_code, as the library does it. */
  async redeem(offerUri: string, txCode: string) {
    const credentialOffer = await this.client.resolveCredentialOffer(offerUri);
    const issuerMetadata = await this.client.resolveIssuerMetadata(credentialOffer.credential_issuer);
    const issuer = issuerMetadata.credentialIssuer as typeof issuerMetadata.credentialIssuer & {
      credential_request_encryption?: { jwks: { keys: JWK[] } };
    };
    this.#credentialEndpoints = new Set(
      [issuer.credential_endpoint, issuer.deferred_credential_endpoint].filter((u) => u !== undefined),
    );
    this.#issuerRequestKey = issuer.credential_request_encryption?.jwks.keys[0];
    const { accessTokenResponse } = await this.client.retrievePreAuthorizedCodeAccessTokenFromOffer({
      credentialOffer,
      issuerMetadata,
      txCode,
    });
    const credentialConfigurationId = credentialOffer.credential_configuration_ids[0] as string;
    return { issuerMetadata, accessToken: accessTokenResponse.access_token, credentialConfigurationId };
  }

  /** A fresh holder key and the library's jwt proof of it over a fresh c_nonce. */
  async proof(issuerMetadata: NextIssuerMetadata, credentialConfigurationId: string) {
    const pair = await generateKeyPair('ES256', { extractable: true });
    const { kty, crv, x, y } = await exportJWK(pair.publicKey);
    const holderJwk = { kty, crv, x, y } as JWK;
    this.#signing.set(await calculateJwkThumbprint(holderJwk), pair);
    const { c_nonce } = await this.client.requestNonce({ issuerMetadata });
    const { jwt } = await this.client.createCredentialRequestJwtProof({
      issuerMetadata,
      credentialConfigurationId,
      signer: { method: 'jwk', alg: 'ES256', publicJwk: holderJwk as never },
      nonce: c_nonce,
    });
    return { holderJwk, jwt };
  }

  /** An ephemeral ECDH-ES key for one response, in the library's `credentialResponseEncryption` shape. */
  async responseEncryption(enc: 'A128GCM' | 'A256GCM' = 'A256GCM') {
    const pair = await generateKeyPair('ECDH-ES', { crv: 'P-256', extractable: true });
    const { kty, crv, x, y } = await exportJWK(pair.publicKey);
    const kid = await calculateJwkThumbprint({ kty, crv, x, y } as JWK);
    this.#decrypting.set(kid, pair);
    const jwk = { kty: kty as string, crv, x, y, kid, alg: 'ECDH-ES', use: 'enc' };
    return { jwk, alg: 'ECDH-ES', enc };
  }

  /** The `decryptJwe` callback's work: open a response JWE with the key its kid names. */
  async decrypt(jwe: string) {
    const { kid } = decodeProtectedHeader(jwe);
    const pair = typeof kid === 'string' ? this.#decrypting.get(kid) : undefined;
    if (!pair) return { decrypted: false as const };
    const { plaintext } = await compactDecrypt(jwe, pair.privateKey, {
      keyManagementAlgorithms: ['ECDH-ES'],
      contentEncryptionAlgorithms: ['A128GCM', 'A256GCM'],
    });
    const decryptionJwk = await exportJWK(pair.publicKey);
    return {
      decrypted: true as const,
      payload: new TextDecoder().decode(plaintext),
      decryptionJwk: decryptionJwk as never,
    };
  }
}
