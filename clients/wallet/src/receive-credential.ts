import { calculateJwkThumbprint, type JWK } from 'jose';
import { credentialEncryptionOf } from './credential-encryption.js';
import { type CredentialOffer, preAuthorizedGrant, resolveCredentialOffer } from './credential-offer.js';
import { requestCredential } from './credential-request.js';
import { awaitDeferredCredential, deferredEndpointOf } from './deferred-credential.js';
import { DeferredIssuance, OAuthError, WalletError } from './errors.js';
import type { HolderCrypto, HolderKey } from './holder-crypto.js';
import type { HttpOptions } from './http.js';
import { type CredentialConfiguration, type DiscoveredIssuer, discoverIssuer } from './issuer-metadata.js';
import { requestNonce } from './nonce.js';
import { sendNotification } from './notification.js';
import { createProofJwt } from './proof.js';
import { requestPreAuthorizedToken } from './token.js';
import { type VerifiedMdoc, verifyMdoc } from './verify-mdoc.js';
import { type VerifiedSdJwtVc, verifySdJwtVc } from './verify-sd-jwt-vc.js';

export interface ReceiveOptions extends HttpOptions {
  /** The transaction code the End-User received out of band; needed when the offer asks for one. */
  txCode?: string;
  /** Which offered configuration to request; the first offered one by default. */
  credentialConfigurationId?: string;
  /** How many credential instances (one key each) to ask for; at most the issuer's batch size. */
  keyCount?: number;
  clientId?: string;
  /** Read the status list while verifying (default true). */
  checkStatus?: boolean;
  /**
   * IACA certificates (base64 DER) an mdoc's document signer chain must end in. Absent, the chain
   * is only checked to be one (each certificate issued by the next, all valid now), as a Request
   * Object's x5c is; a wallet in the open passes its issuer trust list here.
   */
  trustAnchors?: string[];
  /**
   * Encrypt the credential request and ask for an encrypted response (OID4VCI §10) when the issuer
   * offers both (default true); an issuer that requires encryption gets it either way.
   */
  encrypt?: boolean;
  /**
   * When the issuer defers issuance (OID4VCI §8.3, e.g. until someone approves it), wait up to this
   * many milliseconds, asking the deferred credential endpoint every `interval` it names. Absent or
   * past it, DeferredIssuance is thrown (with the transaction_id, for a later requestDeferredCredential).
   */
  deferredTimeoutMs?: number;
}

/** A credential received and verified; `compact` is as the Credential Response carried it. */
export type ReceivedCredential =
  | { format: 'dc+sd-jwt'; compact: string; key: HolderKey; verified: VerifiedSdJwtVc }
  | { format: 'mso_mdoc'; compact: string; key: HolderKey; verified: VerifiedMdoc };

export interface ReceivedCredentials {
  offer: CredentialOffer;
  discovered: DiscoveredIssuer;
  credentialConfigurationId: string;
  credentials: ReceivedCredential[];
  notificationId?: string;
  accessToken: string;
}

/**
 * The whole pre-authorized code flow for an offer link: offer → metadata → token (with tx_code) →
 * nonce → credential request with one proof per key → verification → notification. A proof
 * rejected with `invalid_nonce` is retried once with a fresh nonce, as OID4VCI §8.3.1.2 advises.
 * Credentials that fail verification are reported to the issuer as `credential_failure`.
 */
export async function receiveCredentialOffer(
  offerUri: string,
  crypto: HolderCrypto,
  opts: ReceiveOptions = {},
): Promise<ReceivedCredentials> {
  const offer = await resolveCredentialOffer(offerUri, opts);
  const discovered = await discoverIssuer(offer, opts);
  const { issuer, authorizationServer } = discovered;
  const configurationId = opts.credentialConfigurationId ?? (offer.credential_configuration_ids[0] as string);
  if (!offer.credential_configuration_ids.includes(configurationId))
    throw new WalletError(`${configurationId} is not offered`);
  const configuration = issuer.credential_configurations_supported[configurationId];
  if (configuration?.format !== 'dc+sd-jwt' && configuration?.format !== 'mso_mdoc')
    throw new WalletError(`${configurationId} is neither a dc+sd-jwt nor an mso_mdoc credential`);
  // An mdoc binds to a COSE_Key, which the issuer makes from the proof's JWK (OID4VCI A.2).
  const binding = configuration.cryptographic_binding_methods_supported;
  if (configuration.format === 'mso_mdoc' && binding && !binding.includes('cose_key'))
    throw new WalletError(`${configurationId} does not bind to a cose_key`);
  const proofAlgs = configuration.proof_types_supported?.jwt?.proof_signing_alg_values_supported;
  if (configuration.proof_types_supported && !proofAlgs?.includes('ES256'))
    throw new WalletError(`${configurationId} does not accept ES256 jwt proofs`);
  const keyCount = opts.keyCount ?? 1;
  if (keyCount > 1 && keyCount > (issuer.batch_credential_issuance?.batch_size ?? 1))
    throw new WalletError(`the issuer does not issue ${keyCount} credentials in one request`);

  const grant = preAuthorizedGrant(offer);
  if (grant.tx_code && opts.txCode === undefined) throw new WalletError('the offer requires a tx_code');
  const token = await requestPreAuthorizedToken(
    {
      tokenEndpoint: authorizationServer.token_endpoint,
      preAuthorizedCode: grant['pre-authorized_code'],
      ...(grant.tx_code ? { txCode: opts.txCode } : {}),
      ...(opts.clientId ? { clientId: opts.clientId } : {}),
    },
    opts,
  );
  const identifier = token.authorization_details?.find(
    (d) => d.credential_configuration_id === configurationId,
  )?.credential_identifiers?.[0];

  const encryption = credentialEncryptionOf(issuer, opts.encrypt ?? true);
  const keys = await Promise.all(Array.from({ length: keyCount }, () => crypto.createKey()));
  const request = async () => {
    const nonce = issuer.nonce_endpoint ? await requestNonce(issuer.nonce_endpoint, opts) : undefined;
    const proofJwts = await Promise.all(
      keys.map((key) => createProofJwt({ key, audience: issuer.credential_issuer, nonce }, crypto)),
    );
    return requestCredential(
      {
        credentialEndpoint: issuer.credential_endpoint,
        accessToken: token.access_token,
        ...(identifier
          ? { credentialIdentifier: identifier }
          : { credentialConfigurationId: configurationId }),
        proofJwts,
        ...(encryption ? { encryption } : {}),
      },
      opts,
    );
  };
  const response = await request()
    .catch((e) => {
      if (e instanceof OAuthError && e.error === 'invalid_nonce') return request();
      throw e;
    })
    .catch((e) => {
      if (!(e instanceof DeferredIssuance) || !opts.deferredTimeoutMs) throw e;
      const deferred = {
        deferredCredentialEndpoint: deferredEndpointOf(issuer),
        accessToken: token.access_token,
        transactionId: e.transactionId,
        keyCount,
        ...(encryption ? { encryption } : {}),
      };
      return awaitDeferredCredential(deferred, e, opts.deferredTimeoutMs, opts);
    });

  const notify = (event: 'credential_accepted' | 'credential_failure', eventDescription?: string) =>
    issuer.notification_endpoint && response.notificationId
      ? sendNotification(
          {
            notificationEndpoint: issuer.notification_endpoint,
            accessToken: token.access_token,
            notificationId: response.notificationId,
            event,
            ...(eventDescription ? { eventDescription } : {}),
          },
          opts,
        )
      : Promise.resolve();

  let credentials: ReceivedCredential[];
  try {
    credentials = await Promise.all(
      response.credentials.map((compact) => verifyOne(compact, keys, offer, configuration, opts)),
    );
    if (new Set(credentials.map((c) => c.key.id)).size !== credentials.length)
      throw new WalletError('two credentials are bound to the same key');
  } catch (e) {
    await notify('credential_failure', (e as Error).message.slice(0, 200)).catch(() => undefined);
    throw e;
  }
  await notify('credential_accepted');
  return {
    offer,
    discovered,
    credentialConfigurationId: configurationId,
    credentials,
    accessToken: token.access_token,
    ...(response.notificationId ? { notificationId: response.notificationId } : {}),
  };
}

/** Verifies one issued credential in its configuration's format and finds the key it is bound to. */
async function verifyOne(
  compact: string,
  keys: HolderKey[],
  offer: CredentialOffer,
  configuration: CredentialConfiguration,
  opts: ReceiveOptions,
): Promise<ReceivedCredential> {
  const holderKeys = keys.map((k) => k.publicJwk);
  const ownerOf = async (bound: JWK) => {
    const thumbprint = await calculateJwkThumbprint(bound);
    for (const key of keys) if ((await calculateJwkThumbprint(key.publicJwk)) === thumbprint) return key;
    throw new WalletError('the credential is bound to none of our keys');
  };
  if (configuration.format === 'mso_mdoc') {
    const verified = await verifyMdoc(compact, {
      ...opts,
      holderKeys,
      credentialIssuer: offer.credential_issuer,
      ...(typeof configuration.doctype === 'string' ? { expectedDoctype: configuration.doctype } : {}),
    });
    return { format: 'mso_mdoc', compact, key: await ownerOf(verified.deviceKey), verified };
  }
  const verified = await verifySdJwtVc(compact, {
    ...opts,
    holderKeys,
    expectedIssuer: offer.credential_issuer,
    ...(configuration.vct !== undefined ? { expectedVct: configuration.vct } : {}),
  });
  return { format: 'dc+sd-jwt', compact, key: await ownerOf(verified.holderKey), verified };
}
