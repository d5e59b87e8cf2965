import { createHash, randomBytes, type webcrypto, X509Certificate } from 'node:crypto';
import { type CallbackContext, HashAlgorithm, type Jwk, setGlobalConfig } from '@openid4vc/oauth2';
import { Openid4vpClient, type ResolvedOpenid4vpAuthorizationRequest } from '@openid4vc/openid4vp';
import { digest, ES256 } from '@sd-jwt/crypto-nodejs';
import { SDJwtVcInstance } from '@sd-jwt/sd-jwt-vc';
import { base64url, CompactEncrypt, compactVerify, importJWK, type JWK } from 'jose';
import { type TransactionDataMode, transactionDataHashClaims } from './third-party-transaction-data.js';

/**
 * A second holder made only of third-party libraries: @openid4vc/openid4vp resolves and checks the
 * Request Object (x509_hash, typ, signature via our callback) and builds, encrypts and submits the
 * response; @sd-jwt/sd-jwt-vc makes the presentation and KB-JWT. Nothing of clients/wallet is used,
 * so the verifier is shown to work with a wallet it did not grow up with. Its DCQL support is the
 * common case only: one credential per query matched by vct, claims as listed (first claim_sets option).
 * Transaction data is signed into the KB-JWTs only with `approve` (see third-party-transaction-data).
 */

// The test verifier speaks plain HTTP on loopback; the library refuses http: URLs unless told.
setGlobalConfig({ allowInsecureUrls: true });

type DcqlQueryLike = {
  credentials: {
    id: string;
    meta?: { vct_values?: string[] };
    claims?: { id?: string; path: unknown[] }[];
    claim_sets?: string[][];
  }[];
};

const vctOf = (sdJwt: string): unknown =>
  JSON.parse(Buffer.from(sdJwt.split('~')[0]?.split('.')[1] ?? '', 'base64url').toString()).vct;

/**
 * Whether a presentable key (`mandatee.firstName`, `power.0`) lies on or under a claims path. An
 * element before an indexed one is kept too, so that the index still holds in the presented array.
 */
const keyMatchesPath = (key: string, path: unknown[]) => {
  const segments = key.split('.');
  const n = Math.min(segments.length, path.length);
  return segments.slice(0, n).every((s, i) => {
    const p = path[i];
    const before = typeof p === 'number' && i === segments.length - 1 && /^\d+$/.test(s) && Number(s) < p;
    return p === null || String(p) === s || before;
  });
};

/** An @sd-jwt presentation frame (`{ mandatee: { firstName: true } }`) from dotted keys. */
type Frame = { [key: string]: boolean | Frame };
function presentationFrame(keys: string[]): Frame {
  const frame: Frame = {};
  for (const key of keys) {
    const segments = key.split('.');
    const last = segments.pop() as string;
    let node = frame;
    for (const s of segments) {
      let child = node[s];
      // A key with disclosable keys under it becomes an object: @sd-jwt presents it and them.
      if (typeof child !== 'object') {
        child = {};
        node[s] = child;
      }
      node = child;
    }
    node[last] = node[last] ?? true;
  }
  return frame;
}

export interface ThirdPartyPresentation {
  resolved: ResolvedOpenid4vpAuthorizationRequest;
  vpToken: Record<string, string[]>;
  /** The verifier's answer: status and JSON body (`redirect_uri` when it sends one). */
  status: number;
  body: Record<string, unknown>;
}

/**
 * How a presentation departs from a careful wallet's: its content encryption, no KB-JWT, or
 * transaction data hashes left out or wrong. `approve` signs the request's transaction data;
 * without it a request carrying any is refused.
 */
export interface PresentOptions {
  enc?: 'A128GCM' | 'A256GCM';
  keyBinding?: boolean;
  approve?: boolean;
  transactionDataMode?: TransactionDataMode;
}

export class ThirdPartyHolder {
  readonly client: Openid4vpClient;
  /** The hash callback the library is given, for the transaction data hashes too. */
  private readonly hash: CallbackContext['hash'];

  private constructor(
    readonly holderJwk: JWK,
    private readonly privateJwk: webcrypto.JsonWebKey,
    fetchImpl: typeof fetch,
  ) {
    this.hash = (data, alg) => {
      if (!Object.values(HashAlgorithm).includes(alg)) throw new Error(`unsupported hash ${alg}`);
      return createHash(alg.replace('-', '')).update(data).digest();
    };
    const callbacks: Omit<CallbackContext, 'generateRandom' | 'clientAuthentication'> = {
      fetch: fetchImpl,
      hash: this.hash,
      // x509_hash: the library checks the hash of x5c[0]; we check the signature with its key.
      verifyJwt: async (signer, { compact }) => {
        if (signer.method !== 'x5c') return { verified: false };
        const leaf = new X509Certificate(Buffer.from(signer.x5c[0] ?? '', 'base64'));
        if (leaf.validToDate < new Date() || leaf.validFromDate > new Date()) return { verified: false };
        const ok = await compactVerify(compact, leaf.publicKey, { algorithms: [signer.alg] }).then(
          () => true,
          () => false,
        );
        return ok
          ? { verified: true, signerJwk: leaf.publicKey.export({ format: 'jwk' }) as Jwk }
          : { verified: false };
      },
      getX509CertificateMetadata: (certificate) => {
        const san = new X509Certificate(Buffer.from(certificate, 'base64')).subjectAltName ?? '';
        const names = (kind: string) =>
          san
            .split(', ')
            .filter((s) => s.startsWith(kind))
            .map((s) => s.slice(kind.length));
        return { sanDnsNames: names('DNS:'), sanUriNames: names('URI:') };
      },
      encryptJwe: async (encryptor, data) => {
        if (encryptor.method !== 'jwk')
          throw new Error(`encryptor method ${encryptor.method} is not supported`);
        const { publicJwk, alg, enc, apu, apv } = encryptor;
        const jwe = await new CompactEncrypt(new TextEncoder().encode(data))
          .setProtectedHeader({ alg, enc, ...(publicJwk.kid ? { kid: publicJwk.kid } : {}) })
          .setKeyManagementParameters({
            ...(apu ? { apu: base64url.decode(apu) } : {}),
            ...(apv ? { apv: base64url.decode(apv) } : {}),
          })
          .encrypt(await importJWK(publicJwk as JWK, alg));
        return { jwe, encryptionJwk: publicJwk };
      },
      signJwt: () => {
        throw new Error('a holder signs no JWT through the OID4VP library');
      },
      decryptJwe: () => {
        throw new Error('encrypted request objects are not supported');
      },
    };
    this.client = new Openid4vpClient({ callbacks });
  }

  /** A holder with a fresh P-256 key; issue credentials to `holderJwk` (e.g. delivery `direct`). */
  static async create(fetchImpl: typeof fetch = fetch): Promise<ThirdPartyHolder> {
    const { publicKey, privateKey } = await ES256.generateKeyPair();
    const { kty, crv, x, y } = publicKey;
    return new ThirdPartyHolder({ kty, crv, x, y } as JWK, privateKey, fetchImpl);
  }

  /** The verified request of an `openid4vp://` link, as the library resolves it. */
  resolve(authorizationRequestUri: string): Promise<ResolvedOpenid4vpAuthorizationRequest> {
    const parsed = this.client.parseOpenid4vpAuthorizationRequest({
      authorizationRequest: authorizationRequestUri,
    });
    return this.client.resolveOpenId4vpAuthorizationRequest({ authorizationRequestPayload: parsed.params });
  }

  /**
   * Declines the request with an OAuth error response sent in the clear, whatever its response
   * mode: the library posts it form-encoded to the response_uri, as OID4VP 1.0 section 8.3.1 allows
   * a wallet that cannot (or will not) encrypt for a direct_post.jwt request.
   */
  async decline(authorizationRequestUri: string, error = 'access_denied') {
    const resolved = await this.resolve(authorizationRequestUri);
    const request = resolved.authorizationRequestPayload as { response_uri?: string; state?: string };
    const { response } = await this.client.submitOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: request,
      authorizationResponsePayload: {
        error,
        error_description: 'the user declined to share a credential',
        ...(request.state ? { state: request.state } : {}),
      } as never,
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return { resolved, status: response.status, body };
  }

  /**
   * Answers the request at `authorizationRequestUri` with `credentials` (SD-JWT VCs bound to our key).
   * `enc` makes the library encrypt with that content encryption (default: the first of A128GCM and
   * A256GCM the verifier lists); `keyBinding: false` leaves the KB-JWT off, as a careless wallet would.
   */
  async present(
    authorizationRequestUri: string,
    credentials: string[],
    options: PresentOptions = {},
  ): Promise<ThirdPartyPresentation> {
    return this.presentVpToken(
      authorizationRequestUri,
      (resolved) =>
        this.vpToken(
          resolved,
          credentials,
          (resolved.authorizationRequestPayload as { client_id: string }).client_id,
          options,
        ),
      options,
    );
  }

  /**
   * Answers the request with a vp_token another holder made (an mdoc's DeviceResponse, say): the
   * library resolves the request, encrypts the response when asked (.jwt) and posts it.
   */
  async presentVpToken(
    authorizationRequestUri: string,
    makeVpToken: (resolved: ResolvedOpenid4vpAuthorizationRequest) => Promise<Record<string, string[]>>,
    options: PresentOptions = {},
  ): Promise<ThirdPartyPresentation> {
    const resolved = await this.resolve(authorizationRequestUri);
    const vpToken = await makeVpToken(resolved);
    const { authorizationResponsePayload, jarm } = await this.response(resolved, vpToken, undefined, options);
    const { response } = await this.client.submitOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: resolved.authorizationRequestPayload as { response_uri?: string },
      authorizationResponsePayload,
      ...(jarm ? { jarm: { responseJwt: jarm.responseJwt } } : {}),
    });
    const body = (await response.json().catch(() => ({}))) as Record<string, unknown>;
    return { resolved, vpToken, status: response.status, body };
  }

  /**
   * Plays the wallet behind `navigator.credentials.get` (OID4VP 1.0 Appendix A): the library parses
   * the request's `data` (signed: `{ request }`, checked against `origin` and expected_origins;
   * unsigned: the parameters), the KB-JWT is addressed to `origin:<origin>` (A.4) unless `audience`
   * says otherwise, and what comes back is the DigitalCredential's `data`: `{ response }` for
   * dc_api.jwt, `{ vp_token }` for dc_api.
   */
  async answerDcApi(
    request: { protocol: string; data: Record<string, unknown> },
    origin: string,
    credentials: string[],
    audience = `origin:${origin}`,
    options: PresentOptions = {},
  ): Promise<{ resolved: ResolvedOpenid4vpAuthorizationRequest; data: Record<string, unknown> }> {
    return this.answerDcApiWithVpToken(request, origin, (resolved) =>
      this.vpToken(resolved, credentials, audience, options),
    );
  }

  /** answerDcApi with a vp_token another holder made (an mdoc's DeviceResponse, say). */
  async answerDcApiWithVpToken(
    request: { protocol: string; data: Record<string, unknown> },
    origin: string,
    makeVpToken: (resolved: ResolvedOpenid4vpAuthorizationRequest) => Promise<Record<string, string[]>>,
  ): Promise<{ resolved: ResolvedOpenid4vpAuthorizationRequest; data: Record<string, unknown> }> {
    const parsed = this.client.parseOpenid4vpAuthorizationRequest({ authorizationRequest: request.data });
    const resolved = await this.client.resolveOpenId4vpAuthorizationRequest({
      authorizationRequestPayload: parsed.params,
      origin,
    });
    const vpToken = await makeVpToken(resolved);
    const { authorizationResponsePayload, jarm } = await this.response(resolved, vpToken, origin);
    return {
      resolved,
      data: jarm ? { response: jarm.responseJwt } : { vp_token: authorizationResponsePayload.vp_token },
    };
  }

  /** One SD-JWT presentation per credential query, its KB-JWT for the request's nonce and `audience`. */
  private async vpToken(
    resolved: ResolvedOpenid4vpAuthorizationRequest,
    credentials: string[],
    audience: string,
    options: PresentOptions = {},
  ): Promise<Record<string, string[]>> {
    const { nonce } = resolved.authorizationRequestPayload as { nonce: string };
    const sdJwtVc = new SDJwtVcInstance({
      hasher: digest,
      kbSigner: await ES256.getSigner(this.privateJwk),
      kbSignAlg: 'ES256',
    });
    const vpToken: Record<string, string[]> = {};
    const query = resolved.dcql?.query as DcqlQueryLike | undefined;
    if (!query) throw new Error('the request has no dcql_query');
    const transactionDataHashes = await transactionDataHashClaims(
      resolved,
      query.credentials.map((q) => q.id),
      this.hash,
      { approve: options.approve ?? false, mode: options.transactionDataMode ?? 'sign' },
    );
    for (const q of query.credentials) {
      const credential = credentials.find((c) => q.meta?.vct_values?.includes(vctOf(c) as string));
      if (!credential) throw new Error(`no credential for query ${q.id}`);
      const option = q.claim_sets?.[0];
      const paths = (q.claims ?? [])
        .filter((c) => !option || (c.id && option.includes(c.id)))
        .map((c) => c.path);
      const keys = (await sdJwtVc.presentableKeys(credential)).filter((k) =>
        paths.some((p) => keyMatchesPath(k, p)),
      );
      const payload = {
        aud: audience,
        nonce,
        iat: Math.floor(Date.now() / 1000),
        ...transactionDataHashes[q.id],
      };
      const kb = { payload };
      const frame = presentationFrame(keys);
      vpToken[q.id] = [
        options.keyBinding === false
          ? await sdJwtVc.present(credential, frame)
          : await sdJwtVc.present(credential, frame, { kb }),
      ];
    }
    return vpToken;
  }

  /** The Authorization Response, encrypted to the request's key when its response mode asks (.jwt). */
  private response(
    resolved: ResolvedOpenid4vpAuthorizationRequest,
    vpToken: Record<string, string[]>,
    origin?: string,
    options: PresentOptions = {},
  ) {
    const mode = resolved.authorizationRequestPayload.response_mode;
    const encrypted = mode === 'direct_post.jwt' || mode === 'dc_api.jwt';
    return this.client.createOpenid4vpAuthorizationResponse({
      authorizationRequestPayload: resolved.authorizationRequestPayload,
      authorizationResponsePayload: { vp_token: vpToken },
      ...(origin ? { origin } : {}),
      ...(encrypted
        ? {
            jarm: {
              encryption: { nonce: randomBytes(16).toString('base64url') },
              serverMetadata: {
                authorization_signing_alg_values_supported: [],
                authorization_encryption_alg_values_supported: ['ECDH-ES'],
                authorization_encryption_enc_values_supported: options.enc
                  ? [options.enc]
                  : ['A128GCM', 'A256GCM'],
              },
            },
          }
        : {}),
    });
  }
}
