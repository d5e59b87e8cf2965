import type { EntityManager } from '@mikro-orm/postgresql';
import type { Config } from '../config.js';
import { DEVELOPMENT_KEY_ENCRYPTION_KEY } from '../keys/key-encryption.js';
import type { Certificate } from '../keys/x509-certificate.js';
import type { Trust } from '../trust/trust.js';
import { walletProviderTrust } from '../trust/wallet-provider-trust.js';
import { loadTrustAnchors } from './client-attestation/trust-anchors.js';
import { DpopNonces } from './dpop/dpop-nonce.js';

/** How the token, credential and notification endpoints hold wallets to their keys. */
export interface WalletSecurity {
  nonces: DpopNonces;
  /** DPOP_REQUIRED: token requests without a DPoP proof are refused. */
  dpopRequired: boolean;
  /** WALLET_PROVIDER_TRUST_ANCHORS: the roots of wallet providers the operator trusts by hand. */
  walletProviderAnchors: Certificate[];
  /**
   * Whom wallet and key attestations may chain to: those roots and the wallet providers trust
   * sources list (deployment-wide, see walletProviderTrust), cached per node.
   */
  walletProviders(em: EntityManager): Promise<Trust>;
  /** WALLET_ATTESTATION_REQUIRED: token requests without a wallet attestation are refused. */
  attestationRequired: boolean;
}

const made = new WeakMap<Config, WalletSecurity>();

/**
 * One per configuration (so per service in a process): the DPoP nonce key, derived like the other
 * secrets from KEY_ENCRYPTION_KEY so that every node accepts every node's nonces, and the trust
 * anchors, read at the first call (mountOid4vci, at start).
 */
export function walletSecurity(config: Config): WalletSecurity {
  let s = made.get(config);
  if (!s) {
    const walletProviderAnchors = loadTrustAnchors(config.WALLET_PROVIDER_TRUST_ANCHORS);
    s = {
      nonces: new DpopNonces(config.KEY_ENCRYPTION_KEY ?? DEVELOPMENT_KEY_ENCRYPTION_KEY),
      dpopRequired: config.DPOP_REQUIRED === 'true',
      walletProviderAnchors,
      walletProviders: (em) =>
        walletProviderTrust(em, walletProviderAnchors, config.TRUST_LIST_GRACE_SECONDS),
      attestationRequired: config.WALLET_ATTESTATION_REQUIRED === 'true',
    };
    made.set(config, s);
  }
  return s;
}
