/**
 * A raw admin API call, for tests that check the wire itself (status, media type, problem body)
 * rather than go through the typed client: JSON in, the status, content type and parsed body out.
 */
export async function adminRequest(
  t: { baseUrl: string; adminToken: string },
  method: string,
  path: string,
  body?: unknown,
) {
  const res = await fetch(`${t.baseUrl}/admin/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${t.adminToken}`,
      ...(body ? { 'content-type': 'application/json' } : {}),
    },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), body: text ? JSON.parse(text) : {} };
}
