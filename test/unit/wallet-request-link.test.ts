import { describe, expect, it } from 'vitest';
import { parseAuthorizationRequestUri } from '../../clients/wallet/src/authorization-request.js';

/** The demo wallet opens request links of both schemes the verifier hands out (HAIP 1.0 haip-vp). */
describe('request links of the demo wallet', () => {
  const requestUri = 'https://verifier.example/oid4vp/auth-request/abc?flow=same-device';
  const query = `client_id=${encodeURIComponent('x509_hash:h')}&request_uri=${encodeURIComponent(requestUri)}`;

  it.each(['openid4vp', 'haip-vp'])('reads client_id and request_uri of a %s:// link', (scheme) => {
    expect(parseAuthorizationRequestUri(`${scheme}://?${query}`)).toEqual({
      clientId: 'x509_hash:h',
      requestUri,
    });
  });

  it('refuses a haip-vp:// link without a signed request', () => {
    expect(() => parseAuthorizationRequestUri('haip-vp://?client_id=x509_hash%3Ah')).toThrow(/not signed/);
  });
});
