/**
 * A holder wallet for OpenID4VCI 1.0 (pre-authorized code flow), OpenID4VP 1.0 (signed requests of
 * x509_hash and x509_san_dns clients, DCQL, direct_post and direct_post.jwt, the Digital
 * Credentials API, transaction data signed into KB-JWTs once approved), SD-JWT VC and ISO mdoc
 * (mso_mdoc, its CBOR and COSE through @owf/mdoc). Each protocol step is a verb-first function
 * taking its inputs and HttpOptions; HolderWallet wires them to a key provider (HolderCrypto) and a
 * CredentialStore.
 */
export * from './approval-transaction-data.js';
export * from './authorization-request.js';
export * from './claims-path.js';
export * from './credential-encryption.js';
export * from './credential-offer.js';
export * from './credential-request.js';
export * from './credential-store.js';
export * from './deferred-credential.js';
export * from './encrypt-response.js';
export * from './errors.js';
export * from './file-wallet-store.js';
export * from './holder-crypto.js';
export * from './holder-wallet.js';
export type { HttpOptions } from './http.js';
export * from './issuer-keys.js';
export * from './issuer-metadata.js';
export * from './limit-disclosures.js';
export * from './mdoc-claims.js';
export * from './mdoc-presentation.js';
export * from './nonce.js';
export * from './notification.js';
export * from './present-credentials.js';
export * from './present-match.js';
export * from './present-over-dc-api.js';
export * from './proof.js';
export * from './receive-credential.js';
export * from './request-object.js';
export * from './sd-jwt.js';
export * from './sd-jwt-presentation.js';
export * from './select-for-dcql.js';
export * from './status-list.js';
export * from './status-list-cwt.js';
export * from './submit-response.js';
export * from './token.js';
export * from './transaction-data.js';
export * from './transaction-data-hashes.js';
export * from './verify-mdoc.js';
export * from './verify-sd-jwt-vc.js';
export * from './well-known.js';
export * from './x509-hash.js';
export * from './x509-san-dns.js';
