import { invalidRequest } from '../oid4vci/oauth-error.js';

const ERROR_CODE = /^[\x20-\x21\x23-\x5B\x5D-\x7E]{1,64}$/;

/** What an Authorization Response says: a vp_token, or the wallet's error (OID4VP section 8.5). */
export interface ResponseParameters {
  vpToken: unknown;
  /** An error response of the wallet, e.g. access_denied. */
  walletError?: string;
}

/** The vp_token or error of a response's parameters (a form, a decrypted payload, DC API data). */
export function responseParameters(p: { vp_token?: unknown; error?: unknown }): ResponseParameters {
  if (p.error !== undefined) {
    if (typeof p.error !== 'string' || !ERROR_CODE.test(p.error))
      throw invalidRequest('error is not an OAuth error code');
    return { vpToken: undefined, walletError: p.error };
  }
  return { vpToken: parseVpToken(p.vp_token) };
}

/** vp_token is a JSON object (OID4VP 1.0 section 8.1), sent as a string in a form. */
function parseVpToken(raw: unknown): unknown {
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    throw invalidRequest('vp_token is not a JSON object');
  }
}
