import { z } from 'zod';

/**
 * OID4VP 1.0 Appendix A.1: the exchange protocol of a request handed to the W3C Digital Credentials
 * API. This verifier sends signed requests (JWS Compact Serialization) and unsigned ones.
 */
export const DcApiProtocol = z.enum(['openid4vp-v1-signed', 'openid4vp-v1-unsigned']);
export type DcApiProtocol = z.infer<typeof DcApiProtocol>;

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * An `expected_origins` entry (Appendix A.2): an origin exactly as a browser reports it
 * (`https://shop.example`, no path, no trailing slash), since wallets compare it as a plain string.
 * https only; http only on the loopback interface (the "local development" the appendix allows).
 */
export function isExpectedOrigin(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (url.origin !== value) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
}

export const ExpectedOrigin = z.string().max(300).refine(isExpectedOrigin, {
  message: 'an origin such as https://shop.example (no path or trailing slash; http only on localhost)',
});

/**
 * What the integrator's page passes to the browser, as one entry of
 * `navigator.credentials.get({ digital: { requests: [ … ] } })`: `openid4vp-v1-signed` with
 * `data: { request: <JWS> }` (Appendix A.3.2.1), or `openid4vp-v1-unsigned` with the request
 * parameters themselves (Appendix A.3.1, no client_id).
 */
export const DcApiRequest = z.object({
  protocol: DcApiProtocol,
  data: z
    .record(z.unknown())
    .describe(
      'signed: { request: <Request Object JWS> }; unsigned: { response_type, response_mode, nonce, dcql_query, client_metadata }',
    ),
});
export type DcApiRequest = z.infer<typeof DcApiRequest>;

/** ISO/IEC 18013-7 Annex C: the Digital Credentials API protocol of a request for one ISO mdoc. */
export const ANNEX_C_PROTOCOL = 'org-iso-mdoc';

/**
 * An ISO/IEC 18013-7 Annex C request (`org-iso-mdoc`): the DeviceRequest (one DocRequest: the doctype
 * and its elements) and the EncryptionInfo (a nonce and the P-256 key the wallet HPKE-encrypts its
 * DeviceResponse to), each CBOR as base64url. Offered beside the OpenID4VP request only when the
 * session asks for exactly one mdoc; an iPhone's wallet answers this protocol.
 */
export const AnnexCDcApiRequest = z.object({
  protocol: z.literal(ANNEX_C_PROTOCOL),
  data: z.object({
    deviceRequest: z.string().describe('base64url of the CBOR DeviceRequest'),
    encryptionInfo: z
      .string()
      .describe('base64url of the CBOR EncryptionInfo ["dcapi", {nonce, recipientPublicKey}]'),
  }),
});
export type AnnexCDcApiRequest = z.infer<typeof AnnexCDcApiRequest>;

/** One entry of `navigator.credentials.get({ digital: { requests } })`: OpenID4VP, or Annex C. */
export const DigitalCredentialRequest = z.union([DcApiRequest, AnnexCDcApiRequest]);
export type DigitalCredentialRequest = z.infer<typeof DigitalCredentialRequest>;
