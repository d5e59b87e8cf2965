/**
 * The pre-authorized code flow as a wallet starts it: the offer read from its address (a
 * credential_offer_uri's target), and its pre-authorized code redeemed at the token endpoint with a
 * tx_code.
 */
export async function readPreAuthorizedOffer(location: string) {
  const offer = (await (await fetch(location)).json()) as {
    credential_issuer: string;
    grants: Record<string, { 'pre-authorized_code': string }>;
  };
  const code = offer.grants['urn:ietf:params:oauth:grant-type:pre-authorized_code']?.['pre-authorized_code'];
  return { credentialIssuer: offer.credential_issuer, code: code ?? '' };
}

/** The token endpoint's answer to `code` with `txCode`. */
export const redeemPreAuthorizedCode = (baseUrl: string, code: string, txCode: string) =>
  fetch(`${baseUrl}/oid4vci/v1/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:pre-authorized_code',
      'pre-authorized_code': code,
      tx_code: txCode,
    }),
  });
