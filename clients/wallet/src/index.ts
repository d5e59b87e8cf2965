/**
 * A holder wallet for OpenID4VCI 1.0 (pre-authorized code flow) and SD-JWT VC. Each protocol step is
 * a verb-first function taking its inputs and HttpOptions; HolderWallet wires them to a key provider
 * (HolderCrypto) and a CredentialStore.
 */
export * from './credential-offer.js';
export * from './credential-request.js';
export * from './credential-store.js';
export * from './errors.js';
export * from './holder-crypto.js';
export * from './holder-wallet.js';
export type { HttpOptions } from './http.js';
export * from './issuer-keys.js';
export * from './issuer-metadata.js';
export * from './nonce.js';
export * from './notification.js';
export * from './proof.js';
export * from './receive-credential.js';
export * from './sd-jwt.js';
export * from './status-list.js';
export * from './token.js';
export * from './verify-sd-jwt-vc.js';
export * from './well-known.js';
