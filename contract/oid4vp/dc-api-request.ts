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
