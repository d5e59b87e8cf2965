import { createHash, randomBytes } from 'node:crypto';
import {
  type CallbackContext,
  clientAuthenticationAnonymous,
  clientAuthenticationClientAttestationJwt,
  HashAlgorithm,
  type JwtSigner,
  Oauth2Client,
  type RequestDpopOptions,
} from '@openid4vc/oauth2';
import { Openid4vciClient, setGlobalConfig } from '@openid4vc/openid4vci';
import { IssuerSigned } from '@owf/mdoc';
import { digest } from '@sd-jwt/crypto-nodejs';
import { getListFromStatusListJWT } from '@sd-jwt/jwt-status-list';
import { SDJwtVcInstance, type SdJwtVcPayload } from '@sd-jwt/sd-jwt-vc';
import {
  calculateJwkThumbprint,
  compactVerify,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  importJWK,
  type JWK,
  SignJWT,
} from 'jose';

/**
 * A second holder wallet made only of third-party libraries (@openid4vc/openid4vci for the protocol,
 * @sd-jwt/* for the credential), so that the service is shown to work with a wallet it did not grow
 * up with. Nothing of clients/wallet is used here.
 */

// The test service speaks plain HTTP on loopback; the library refuses http: URLs unless told.
setGlobalConfig({ allowInsecureUrls: true });

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export interface ThirdPartyReceived {
  credential: string;
  /** The payload with every disclosure applied, as @sd-jwt/sd-jwt-vc returns it. */
  claims: SdJwtVcPayload & Record<string, unknown>;
  header: Record<string, unknown>;
  holderJwk: JWK;
  notificationId?: string;
  /** The issuer metadata came signed and @openid4vc/openid4vci accepted it (typ, sub, signature). */
  signedMetadata: boolean;
  /** `token_type` of the token response: DPoP when the wallet sent a DPoP proof. */
  tokenType: string;
  /** The wallet's DPoP public key, when it used DPoP. */
  dpopJwk?: JWK;
  /** The refresh token of the token response, when the issuer gave one. */
  refreshToken?: string;
}

/** How the wallet holds itself to its keys at the token endpoint. */
export interface ReceiveOptions {
  /** Send DPoP proofs (RFC 9449) with a key of its own, at the token, credential and notification endpoints. */
  dpop?: boolean;
  /**
   * Authenticate with this client attestation (`attest_jwt_client_auth`): its `cnf.jwk` must be a
   * key from `newInstanceKey`, which signs the PoP.
   */
  clientAttestation?: string;
  /**
   * Have the holder key attested (OID4VCI 1.0 appendix D): `attest` gets the key and the c_nonce
   * and returns a wallet provider's key attestation, which the library puts in the jwt proof's
   * `key_attestation` header, or which is sent as the `attestation` proof type.
   */
  keyAttestation?: {
    attest: (holderJwk: JWK, cNonce: string) => Promise<string>;
    proofType?: 'jwt' | 'attestation';
  };
}

/** CBOR maps as @owf/mdoc decodes them (Map), made JSON objects for comparison. */
const plain = (v: unknown): unknown =>
  v instanceof Map
    ? Object.fromEntries([...v].map(([k, x]) => [String(k), plain(x)]))
    : Array.isArray(v)
      ? v.map(plain)
      : v;

/** An mdoc as @owf/mdoc reads it: its header is the doctype, its claims the elements by namespace. */
function readMdoc(credential: string) {
  const issuerSigned = IssuerSigned.fromEncodedForOid4Vci(credential);
  const claims: Record<string, Record<string, unknown>> = {};
  for (const [ns, items] of issuerSigned.issuerNamespaces?.issuerNamespaces ?? [])
    claims[ns] = Object.fromEntries(items.map((i) => [i.elementIdentifier, plain(i.elementValue)]));
  return {
    claims: claims as SdJwtVcPayload & Record<string, unknown>,
    header: { doctype: issuerSigned.issuerAuth.mobileSecurityObject.docType },
  };
}

const issuerPayload = (sdJwt: string) =>
  JSON.parse(Buffer.from(sdJwt.split('~')[0]?.split('.')[1] ?? '', 'base64url').toString()) as SdJwtVcPayload;

/** The issuer keys of `iss` from its JWT VC Issuer Metadata (SD-JWT VC §5), fetched each time. */
async function jwtVcIssuerKeys(iss: string): Promise<JWK[]> {
  const url = new URL(iss);
  const res = await fetch(`${url.origin}/.well-known/jwt-vc-issuer${url.pathname.replace(/\/+$/, '')}`);
  if (!res.ok) throw new Error(`jwt-vc-issuer metadata of ${iss} answered ${res.status}`);
  const meta = (await res.json()) as { issuer?: string; jwks?: { keys: JWK[] }; jwks_uri?: string };
  if (meta.issuer !== iss) throw new Error(`jwt-vc-issuer metadata names ${meta.issuer}, not ${iss}`);
  const jwks = meta.jwks ?? ((await (await fetch(meta.jwks_uri as string)).json()) as { keys: JWK[] });
  return jwks.keys;
}

/**
 * An @sd-jwt Verifier (it is handed `header.payload` and the signature) that finds the key by the
 * JWS `kid` among the keys of an issuer: the JWT's own `iss`, or `fallbackIssuer` for a status list
 * token without one.
 */
const issuerKeyVerifier = (fallbackIssuer?: string) => async (data: string, sig: string) => {
  const [h, p] = data.split('.');
  const header = decodeProtectedHeader(`${h}.${p}.${sig}`);
  const payload = JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as { iss?: string };
  const iss = payload.iss ?? fallbackIssuer;
  if (!iss) throw new Error('no issuer to resolve the signing key from');
  const key = (await jwtVcIssuerKeys(iss)).find((k) => k.kid === header.kid);
  if (!key) throw new Error(`no published key of ${iss} has kid ${String(header.kid)}`);
  await compactVerify(`${data}.${sig}`, await importJWK(key, 'ES256'), { algorithms: ['ES256'] });
  return true;
};

/**
 * The SD-JWT VC verifier: issuer signature, disclosures, exp/nbf and the status (it rejects any
 * status but 0). A status list token without `iss` is checked with the credential issuer's keys.
 */
const sdJwtVcVerifier = (credentialIssuer?: string) =>
  new SDJwtVcInstance({
    hasher: digest,
    verifier: issuerKeyVerifier(),
    statusVerifier: issuerKeyVerifier(credentialIssuer),
  });

export class ThirdPartyWallet {
  readonly #keys = new Map<string, KeyPair>();

  readonly #callbacks: Omit<CallbackContext, 'decryptJwe' | 'encryptJwe'> = {
    // The library sends no Accept header; this wallet prefers signed issuer metadata, as a wallet
    // may (OID4VCI 12.2.2), and so gets it whenever the issuer offers it.
    fetch: (input, init) => {
      if (!String(input).includes('/.well-known/openid-credential-issuer')) return fetch(input, init);
      const headers = new Headers(init?.headers);
      headers.set('accept', 'application/jwt, application/json;q=0.5');
      return fetch(input, { ...init, headers });
    },
    hash: (data, alg) => {
      if (alg !== HashAlgorithm.Sha256) throw new Error(`unsupported hash ${alg}`);
      return createHash('sha256').update(data).digest();
    },
    generateRandom: (n) => randomBytes(n),
    clientAuthentication: clientAuthenticationAnonymous(),
    // Given this, the library asks for signed issuer metadata (OID4VCI 12.2.3) and checks its typ
    // and sub itself; trust comes from the key named by kid being one the issuer publishes at
    // jwt-vc-issuer (whether or not an x5c chain comes along).
    verifyJwt: async (signer, { compact, payload }) => {
      const issuer = typeof payload.sub === 'string' ? payload.sub : undefined;
      const kid = signer.method === 'custom' || signer.method === 'x5c' ? signer.kid : undefined;
      if (!kid || !issuer) return { verified: false };
      const key = (await jwtVcIssuerKeys(issuer)).find((k) => k.kid === kid);
      if (!key) return { verified: false };
      const ok = await compactVerify(compact, await importJWK(key, signer.alg)).then(
        () => true,
        () => false,
      );
      return ok ? { verified: true, signerJwk: key as never } : { verified: false };
    },
    signJwt: async (signer: JwtSigner, { header, payload }) => {
      if (signer.method !== 'jwk') throw new Error(`signer method ${signer.method} is not supported`);
      const pair = this.#keys.get(await calculateJwkThumbprint(signer.publicJwk as JWK));
      if (!pair) throw new Error('no private key for the requested signer');
      const jwt = await new SignJWT(payload as Record<string, unknown>)
        .setProtectedHeader({ ...header, alg: signer.alg })
        .sign(pair.privateKey);
      return { jwt, signerJwk: signer.publicJwk };
    },
  };

  readonly client = new Openid4vciClient({ callbacks: this.#callbacks });

  /** The library's callbacks, authenticating with a wallet attestation when given one. */
  #callbacksFor(clientAttestation?: string) {
    if (!clientAttestation) return this.#callbacks;
    const clientAuthentication = clientAuthenticationClientAttestationJwt({
      clientAttestationJwt: clientAttestation,
      callbacks: this.#callbacks,
    });
    return { ...this.#callbacks, clientAuthentication };
  }

  /** The library's client, authenticating with a wallet attestation when given one. */
  #clientFor(clientAttestation?: string): Openid4vciClient {
    if (!clientAttestation) return this.client;
    return new Openid4vciClient({ callbacks: this.#callbacksFor(clientAttestation) });
  }

  /** A wallet instance key for a wallet provider to attest (`cnf.jwk`); the private key stays here. */
  newInstanceKey(): Promise<JWK> {
    return this.#newKey();
  }

  async #newKey(): Promise<JWK> {
    const pair = await generateKeyPair('ES256', { extractable: true });
    const { kty, crv, x, y } = await exportJWK(pair.publicKey);
    const jwk = { kty, crv, x, y } as JWK;
    this.#keys.set(await calculateJwkThumbprint(jwk), pair);
    return jwk;
  }

  /**
   * The whole pre-authorized code flow from an offer link, then verification and notification;
   * with DPoP and a wallet attestation when asked. The library retries a request once when the
   * issuer answers use_dpop_nonce, and carries each DPoP-Nonce it gets to the next request.
   */
  async receive(offerUri: string, txCode: string, options: ReceiveOptions = {}): Promise<ThirdPartyReceived> {
    const client = this.#clientFor(options.clientAttestation);
    const offer = await client.resolveCredentialOffer(offerUri);
    const issuerMetadata = await client.resolveIssuerMetadata(offer.credential_issuer);
    const dpopJwk = options.dpop ? await this.#newKey() : undefined;
    const tokenDpop: RequestDpopOptions | undefined = dpopJwk
      ? { signer: { method: 'jwk', alg: 'ES256', publicJwk: dpopJwk as never } }
      : undefined;
    const { accessTokenResponse, dpop } = await client.retrievePreAuthorizedCodeAccessTokenFromOffer({
      credentialOffer: offer,
      issuerMetadata,
      txCode,
      ...(tokenDpop ? { dpop: tokenDpop } : {}),
    });
    const credentialConfigurationId = offer.credential_configuration_ids[0] as string;
    return this.#collect(
      issuerMetadata,
      credentialConfigurationId,
      accessTokenResponse,
      dpop,
      dpopJwk,
      options.keyAttestation,
    );
  }

  /**
   * The authorization code flow from an offer with an `authorization_code` grant (OID4VCI 1.0
   * section 5), as @openid4vc/openid4vci runs it: PAR (with PKCE S256, the offer's issuer_state and
   * the configuration's scope), then `signIn` plays the holder's browser from the authorization
   * request URL to the redirect back, whose `iss` the library checks (RFC 9207); then the code,
   * the verifier and the redirect_uri at the token endpoint, and the credential as in `receive`.
   */
  async receiveWithAuthorizationCode(
    offerUri: string,
    signIn: (authorizationRequestUrl: string) => Promise<string>,
    options: ReceiveOptions & { redirectUri?: string; clientId?: string } = {},
  ): Promise<ThirdPartyReceived> {
    const client = this.#clientFor(options.clientAttestation);
    const offer = await client.resolveCredentialOffer(offerUri);
    const issuerMetadata = await client.resolveIssuerMetadata(offer.credential_issuer);
    const credentialConfigurationId = offer.credential_configuration_ids[0] as string;
    const scope =
      issuerMetadata.credentialIssuer.credential_configurations_supported[credentialConfigurationId]?.scope;
    const dpopJwk = options.dpop ? await this.#newKey() : undefined;
    const redirectUri = options.redirectUri ?? 'https://wallet.example/callback';
    const authorization = await client.createAuthorizationRequestUrlFromOffer({
      credentialOffer: offer,
      issuerMetadata,
      clientId: options.clientId ?? 'third-party-wallet',
      redirectUri,
      ...(scope ? { scope } : {}),
      ...(dpopJwk ? { dpop: { signer: { method: 'jwk', alg: 'ES256', publicJwk: dpopJwk as never } } } : {}),
    });
    const authorizationServerMetadata = issuerMetadata.authorizationServers.find(
      (a) => a.issuer === authorization.authorizationServer,
    );
    if (!authorizationServerMetadata) throw new Error('no metadata of the authorization server');
    const response = client.parseAndVerifyAuthorizationResponseRedirectUrl({
      url: await signIn(authorization.authorizationRequestUrl),
      authorizationServerMetadata,
    });
    if (!response.code) throw new Error(`authorization error: ${response.error}`);
    const { accessTokenResponse, dpop } = await client.retrieveAuthorizationCodeAccessTokenFromOffer({
      credentialOffer: offer,
      issuerMetadata,
      authorizationCode: response.code,
      ...(authorization.pkce ? { pkceCodeVerifier: authorization.pkce.codeVerifier } : {}),
      redirectUri,
      ...(authorization.dpop ? { dpop: authorization.dpop } : {}),
    });
    return this.#collect(
      issuerMetadata,
      credentialConfigurationId,
      accessTokenResponse,
      dpop,
      dpopJwk,
      options.keyAttestation,
    );
  }

  /**
   * Wallet-initiated issuance (OID4VCI 1.0 section 5.1.2, no offer): the wallet reads the issuer's
   * metadata, picks the configuration's `scope` and pushes its authorization request without
   * issuer_state (@openid4vc/oauth2 Oauth2Client: PAR, PKCE S256, DPoP); `signIn` plays the holder's
   * browser to the redirect, whose `iss` the library checks; then token and credential as above.
   */
  async receiveWalletInitiated(
    credentialIssuer: string,
    credentialConfigurationId: string,
    signIn: (authorizationRequestUrl: string) => Promise<string>,
    options: ReceiveOptions & { redirectUri?: string; clientId?: string } = {},
  ): Promise<ThirdPartyReceived> {
    const issuerMetadata = await this.client.resolveIssuerMetadata(credentialIssuer);
    const scope =
      issuerMetadata.credentialIssuer.credential_configurations_supported[credentialConfigurationId]?.scope;
    const authorizationServerMetadata = issuerMetadata.authorizationServers[0];
    if (!scope || !authorizationServerMetadata) throw new Error('no scope or authorization server');
    const callbacks = options.clientAttestation
      ? {
          ...this.#callbacks,
          clientAuthentication: clientAuthenticationClientAttestationJwt({
            clientAttestationJwt: options.clientAttestation,
            callbacks: this.#callbacks,
          }),
        }
      : this.#callbacks;
    const oauth2 = new Oauth2Client({ callbacks });
    const dpopJwk = options.dpop ? await this.#newKey() : undefined;
    const redirectUri = options.redirectUri ?? 'https://wallet.example/callback';
    const authorization = await oauth2.createAuthorizationRequestUrl({
      authorizationServerMetadata,
      clientId: options.clientId ?? 'third-party-wallet',
      redirectUri,
      scope,
      ...(dpopJwk ? { dpop: { signer: { method: 'jwk', alg: 'ES256', publicJwk: dpopJwk as never } } } : {}),
    });
    const response = this.client.parseAndVerifyAuthorizationResponseRedirectUrl({
      url: await signIn(authorization.authorizationRequestUrl),
      authorizationServerMetadata,
    });
    if (!response.code)
      throw Object.assign(new Error(`authorization error: ${response.error}`), { response });
    const { accessTokenResponse, dpop } = await oauth2.retrieveAuthorizationCodeAccessToken({
      authorizationServerMetadata,
      authorizationCode: response.code,
      ...(authorization.pkce ? { pkceCodeVerifier: authorization.pkce.codeVerifier } : {}),
      redirectUri,
      ...(authorization.dpop ? { dpop: authorization.dpop } : {}),
    });
    return this.#collect(issuerMetadata, credentialConfigurationId, accessTokenResponse, dpop, dpopJwk);
  }

  /**
   * Credential refresh (OID4VCI 1.0 section 13.5) as @openid4vc/oauth2 does it: the refresh token
   * grant at the token endpoint of the issuer's metadata (with the DPoP key and wallet attestation
   * of the first grant, when given), then a fresh credential for a new holder key as in `receive`.
   */
  async refresh(
    credentialIssuer: string,
    credentialConfigurationId: string,
    refreshToken: string,
    options: { dpopJwk?: JWK; clientAttestation?: string } = {},
  ): Promise<ThirdPartyReceived> {
    const callbacks = this.#callbacksFor(options.clientAttestation);
    const issuerMetadata = await new Openid4vciClient({ callbacks }).resolveIssuerMetadata(credentialIssuer);
    const [authorizationServerMetadata] = issuerMetadata.authorizationServers;
    if (!authorizationServerMetadata) throw new Error('no metadata of the authorization server');
    const { dpopJwk } = options;
    const { accessTokenResponse, dpop } = await new Oauth2Client({
      callbacks,
    }).retrieveRefreshTokenAccessToken({
      authorizationServerMetadata,
      refreshToken,
      resource: credentialIssuer,
      ...(dpopJwk ? { dpop: { signer: { method: 'jwk', alg: 'ES256', publicJwk: dpopJwk as never } } } : {}),
    });
    return this.#collect(issuerMetadata, credentialConfigurationId, accessTokenResponse, dpop, dpopJwk);
  }

  /** From the access token on: nonce, proof, credential, verification and notification. */
  async #collect(
    issuerMetadata: Awaited<ReturnType<Openid4vciClient['resolveIssuerMetadata']>>,
    credentialConfigurationId: string,
    accessTokenResponse: { access_token: string; token_type: string; refresh_token?: string | undefined },
    dpop: RequestDpopOptions | undefined,
    dpopJwk: JWK | undefined,
    keyAttestation?: ReceiveOptions['keyAttestation'],
  ): Promise<ThirdPartyReceived> {
    const holderJwk = await this.#newKey();
    const { c_nonce } = await this.client.requestNonce({ issuerMetadata });
    const attestation = await keyAttestation?.attest(holderJwk, c_nonce as string);
    const proofs =
      attestation && keyAttestation?.proofType === 'attestation'
        ? { attestation: [attestation] }
        : {
            jwt: [
              (
                await this.client.createCredentialRequestJwtProof({
                  issuerMetadata,
                  credentialConfigurationId,
                  signer: { method: 'jwk', alg: 'ES256', publicJwk: holderJwk as never },
                  nonce: c_nonce,
                  ...(attestation ? { keyAttestationJwt: attestation } : {}),
                })
              ).jwt,
            ],
          };
    const credentials = await this.client.retrieveCredentials({
      issuerMetadata,
      accessToken: accessTokenResponse.access_token,
      credentialConfigurationId,
      proofs,
      ...(dpop ? { dpop } : {}),
    });
    const { credentialResponse } = credentials;
    // The library also accepts pre-1.0 shapes (bare strings); 1.0 has objects with `credential`.
    const entry = credentialResponse.credentials?.[0];
    const first = typeof entry === 'object' && entry && 'credential' in entry ? entry.credential : undefined;
    if (typeof first !== 'string') throw new Error('no credential in the credential response');
    const format =
      issuerMetadata.credentialIssuer.credential_configurations_supported[credentialConfigurationId]?.format;
    const verified = format === 'mso_mdoc' ? readMdoc(first) : await this.verify(first, holderJwk);
    const notificationId = credentialResponse.notification_id;
    if (notificationId) {
      await this.client.sendNotification({
        issuerMetadata,
        accessToken: accessTokenResponse.access_token,
        notification: { notificationId, event: 'credential_accepted' },
        ...(dpop ? { dpop: { ...dpop, nonce: credentials.dpop?.nonce ?? dpop.nonce } } : {}),
      });
    }
    return {
      credential: first,
      ...verified,
      holderJwk,
      ...(notificationId ? { notificationId } : {}),
      signedMetadata: issuerMetadata.signedCredentialIssuer !== undefined,
      tokenType: accessTokenResponse.token_type,
      ...(dpopJwk ? { dpopJwk } : {}),
      ...(accessTokenResponse.refresh_token ? { refreshToken: accessTokenResponse.refresh_token } : {}),
    };
  }

  /** Verifies with @sd-jwt/sd-jwt-vc (status included) and checks `typ` and `cnf.jwk`, which it leaves to us. */
  async verify(credential: string, holderJwk: JWK) {
    const header = decodeProtectedHeader(credential.split('~')[0] as string) as Record<string, unknown>;
    if (header.typ !== 'dc+sd-jwt') throw new Error(`typ is ${String(header.typ)}`);
    const { payload } = await sdJwtVcVerifier(issuerPayload(credential).iss).verify(credential);
    const cnf = (payload.cnf as { jwk?: JWK } | undefined)?.jwk;
    if (!cnf || (await calculateJwkThumbprint(cnf)) !== (await calculateJwkThumbprint(holderJwk)))
      throw new Error('the credential is not bound to the proof key');
    return { claims: payload as ThirdPartyReceived['claims'], header };
  }

  /** The current status value at the credential's status list entry (0 valid, 1 invalid, 2 suspended). */
  async status(credential: string): Promise<number> {
    const payload = issuerPayload(credential);
    const ref = payload.status?.status_list;
    if (!ref) throw new Error('the credential has no status list entry');
    const res = await fetch(ref.uri, { headers: { accept: 'application/statuslist+jwt' } });
    if (!res.ok) throw new Error(`status list answered ${res.status}`);
    const jwt = await res.text();
    const [h, p, s] = jwt.split('.');
    await issuerKeyVerifier(payload.iss)(`${h}.${p}`, s ?? '');
    const sub = (JSON.parse(Buffer.from(p ?? '', 'base64url').toString()) as { sub?: string }).sub;
    if (sub !== ref.uri) throw new Error(`status list sub ${sub} is not ${ref.uri}`);
    return getListFromStatusListJWT(jwt).getStatus(ref.idx);
  }
}
