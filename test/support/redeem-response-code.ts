/**
 * The integrator's back end redeeming the response code of a same-device redirect at the token
 * endpoint, authenticated as the tenant with an integrator token, with the session binding (if any)
 * the browser session that started the request kept.
 */
export const redeemResponseCode = (
  baseUrl: string,
  tenant: { id: string; integrator_token: string },
  code: string,
  binding?: string,
) =>
  fetch(`${baseUrl}/oauth2/token`, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`${tenant.id}:${tenant.integrator_token}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      ...(binding === undefined ? {} : { session_binding: binding }),
    }),
  });
