import { randomUUID } from 'node:crypto';
import { type CredentialStore, formatOf, type StoredCredential } from './credential-store.js';
import { WalletError } from './errors.js';
import type { HolderCrypto } from './holder-crypto.js';
import type { HttpOptions } from './http.js';
import {
  type PresentationResult,
  type PresentOptions,
  presentCredentials,
  previewPresentation,
} from './present-credentials.js';
import { type DigitalCredentialRequest, presentOverDcApi } from './present-over-dc-api.js';
import { type ReceiveOptions, receiveCredentialOffer } from './receive-credential.js';
import { type CredentialStatus, fetchCredentialStatus } from './status-list.js';

export interface HolderWalletOptions {
  crypto: HolderCrypto;
  store: CredentialStore;
  http?: HttpOptions;
}

/**
 * A holder wallet: receives credentials from offers, keeps them, checks their status, and presents
 * them to verifiers. It owns no logic of its own beyond wiring: each step is an exported function
 * that works without it.
 */
export class HolderWallet {
  readonly #crypto: HolderCrypto;
  readonly #store: CredentialStore;
  readonly #http: HttpOptions;

  constructor(options: HolderWalletOptions) {
    this.#crypto = options.crypto;
    this.#store = options.store;
    this.#http = options.http ?? {};
  }

  /** Redeems an offer link (`openid-credential-offer://…`), verifies and stores what it receives. */
  async receive(
    offerUri: string,
    options: Omit<ReceiveOptions, keyof HttpOptions> = {},
  ): Promise<StoredCredential[]> {
    const received = await receiveCredentialOffer(offerUri, this.#crypto, { ...this.#http, ...options });
    const stored: StoredCredential[] = [];
    for (const c of received.credentials) {
      const common = {
        id: randomUUID(),
        compact: c.compact,
        holderKeyId: c.key.id,
        receivedAt: new Date(),
        ...(c.verified.statusReference ? { statusReference: c.verified.statusReference } : {}),
      };
      const record: StoredCredential =
        c.format === 'mso_mdoc'
          ? {
              ...common,
              format: 'mso_mdoc',
              // An mdoc names no issuer of its own: it is the Credential Issuer it came from.
              issuer: received.offer.credential_issuer,
              doctype: c.verified.doctype,
              claims: c.verified.claims,
              deviceKey: c.verified.deviceKey,
            }
          : {
              ...common,
              format: 'dc+sd-jwt',
              issuer: c.verified.claims.iss as string,
              vct: c.verified.claims.vct as string,
              claims: c.verified.claims,
            };
      await this.#store.save(record);
      stored.push(record);
    }
    return stored;
  }

  /**
   * Answers an OID4VP request link (`openid4vp://?client_id=…&request_uri=…`) with the stored
   * credentials; `redirectUri` in the result is where the verifier wants the user agent to go.
   * A request carrying transaction data is answered only with `options.approve` (see `preview`).
   */
  async present(authorizationRequestUri: string, options: PresentOptions = {}): Promise<PresentationResult> {
    const credentials = await this.#store.list();
    return presentCredentials(authorizationRequestUri, credentials, this.#crypto, {
      ...this.#http,
      ...options,
    });
  }

  /**
   * Plays the wallet behind the browser's Digital Credentials API: answers `request` (one of
   * `digital.requests`) made on the page at `origin`; returns the DigitalCredential's `data`.
   */
  async answerDcApi(request: DigitalCredentialRequest, origin: string, options: PresentOptions = {}) {
    return presentOverDcApi(request, origin, await this.#store.list(), this.#crypto, {
      ...this.#http,
      ...options,
    });
  }

  /** What `present` would disclose for the link, with nothing sent to the verifier. */
  async preview(authorizationRequestUri: string, options: PresentOptions = {}) {
    return previewPresentation(authorizationRequestUri, await this.#store.list(), {
      ...this.#http,
      ...options,
    });
  }

  list(): Promise<StoredCredential[]> {
    return this.#store.list();
  }

  /** The credential's current status, read afresh from its status list. */
  async checkStatus(id: string): Promise<CredentialStatus> {
    const credential = await this.#store.get(id);
    if (!credential) throw new WalletError(`no credential ${id}`);
    if (!credential.statusReference) throw new WalletError(`credential ${id} has no status list entry`);
    // An mdoc's list is read in its CWT form where the issuer serves it (Token Status List §5.2).
    return fetchCredentialStatus(credential.statusReference, credential.issuer, {
      ...this.#http,
      preferCwt: formatOf(credential) === 'mso_mdoc',
    });
  }
}
