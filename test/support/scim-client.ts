/** A SCIM client as an identity provider would use it: bearer token, application/scim+json. */
export function scimClient(
  baseUrl: string,
  tenantId: string,
  token: string,
  contentType = 'application/scim+json',
) {
  const root = `${baseUrl}/tenants/${tenantId}/scim/v2`;
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${root}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': contentType }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    // biome-ignore lint/suspicious/noExplicitAny: SCIM bodies are read loosely by the tests.
    const json: any = text ? JSON.parse(text) : undefined;
    return { status: res.status, headers: res.headers, body: json };
  };
  return {
    root,
    get: (path: string) => call('GET', path),
    post: (path: string, body: unknown) => call('POST', path, body),
    put: (path: string, body: unknown, headers?: Record<string, string>) => call('PUT', path, body, headers),
    patch: (path: string, body: unknown, headers?: Record<string, string>) =>
      call('PATCH', path, body, headers),
    delete: (path: string) => call('DELETE', path),
    /** PATCH (answered 204), then the resource as it now stands. */
    async patchThenGet(path: string, body: unknown) {
      const patched = await call('PATCH', path, body);
      if (patched.status !== 204) return patched;
      return call('GET', path);
    },
  };
}

export const patchOp = (...Operations: unknown[]) => ({
  schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'],
  Operations,
});
