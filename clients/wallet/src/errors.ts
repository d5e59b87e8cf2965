/**
 * What can go wrong when a wallet talks to an issuer. `OAuthError` carries the server's own error
 * response (RFC 6749 §5.2, RFC 6750 §3, OID4VCI §8.3.1.2) so a caller can react to its `error` code,
 * e.g. fetch a new nonce after `invalid_nonce`.
 */
export class WalletError extends Error {
  override name = 'WalletError';
}

/** The server answered with an error response in the OAuth shape `{ error, error_description? }`. */
export class OAuthError extends WalletError {
  override name = 'OAuthError';
  constructor(
    /** Which endpoint answered: token, nonce, credential, notification. */
    readonly endpoint: string,
    readonly status: number,
    readonly error: string,
    readonly errorDescription?: string,
  ) {
    super(
      `${endpoint} endpoint answered ${status} ${error}${errorDescription ? `: ${errorDescription}` : ''}`,
    );
  }
}

/**
 * The issuer deferred issuance (OID4VCI §8.3, 202): the credentials come later from the deferred
 * credential endpoint, asked with `transactionId` and the same access token, no more often than
 * every `interval` seconds.
 */
export class DeferredIssuance extends WalletError {
  override name = 'DeferredIssuance';
  constructor(
    readonly transactionId: string,
    readonly interval: number,
  ) {
    super(`the issuer deferred issuance: ask again in ${interval}s with the transaction_id`);
  }
}

/** A received credential failed a check; `check` names which one. */
export class CredentialVerificationError extends WalletError {
  override name = 'CredentialVerificationError';
  constructor(
    readonly check: string,
    message: string,
  ) {
    super(`${check}: ${message}`);
  }
}

/** Throws a CredentialVerificationError unless `ok`; keeps the verification steps one line each. */
export function expectCredential(ok: unknown, check: string, message: string): asserts ok {
  if (!ok) throw new CredentialVerificationError(check, message);
}

/** Rejects a credential: for expressions, where an assertion cannot stand. */
export function failCredential(check: string, message: string): never {
  throw new CredentialVerificationError(check, message);
}
