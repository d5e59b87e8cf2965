/**
 * RFC 7636: a code_verifier is 43 to 128 unreserved characters (section 4.1); an S256
 * code_challenge is the base64url SHA-256 of one, always 43 characters (section 4.2).
 */
export const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;
export const S256_CODE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
