import { OAuthError, WalletError } from './errors.js';

/** How the wallet reaches the network; every function takes one, so tests and apps can plug in. */
export interface HttpOptions {
  /** A fetch implementation; the global one when absent. */
  fetch?: typeof fetch;
  /**
   * Allow `http:` URLs. The specifications require `https:` for every URL a wallet dereferences;
   * only a test or a local demo against a plain-HTTP service should turn this on.
   */
  allowHttp?: boolean;
  /** Per-request time limit in milliseconds (default 10 s). */
  timeoutMs?: number;
}

/** Parses `url` and refuses anything but https (or http when allowed). */
export function checkedUrl(url: string, what: string, http: HttpOptions): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new WalletError(`${what} is not a URL: ${url}`);
  }
  if (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && http.allowHttp)) return parsed;
  throw new WalletError(`${what} must use https: ${url}`);
}

const MAX_REDIRECTS = 3;

/**
 * One request with a time limit. A GET follows at most three redirects, each target checked like
 * the first URL (a status list may redirect, Token Status List §8.2; SD-JWT VC §4 bounds the
 * count). Other methods follow none: no endpoint they go to is specified to redirect.
 */
export async function send(url: string, init: RequestInit, what: string, http: HttpOptions) {
  const doFetch = http.fetch ?? fetch;
  const isGet = (init.method ?? 'GET').toUpperCase() === 'GET';
  let target = checkedUrl(url, what, http);
  for (let hop = 0; ; hop++) {
    const res = await doFetch(target, {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(http.timeoutMs ?? 10_000),
    });
    const location = res.headers.get('location');
    if (!isGet || res.status < 300 || res.status > 399 || !location) return res;
    if (hop === MAX_REDIRECTS) throw new WalletError(`${what}: too many redirects`);
    target = checkedUrl(new URL(location, target).toString(), `${what} redirect`, http);
  }
}

const isJson = (res: Response) =>
  /^application\/([\w.+-]+\+)?json\b/i.test(res.headers.get('content-type') ?? '');

const isJwt = (res: Response) => /^application\/jwt\b/i.test(res.headers.get('content-type') ?? '');

/** GET a JSON document; non-2xx and non-JSON answers are errors, never used as content. */
export async function getJson(
  url: string,
  what: string,
  http: HttpOptions,
): Promise<Record<string, unknown>> {
  const res = await send(url, { headers: { accept: 'application/json' } }, what, http);
  if (!res.ok) throw new WalletError(`${what} at ${url} answered ${res.status}`);
  if (!isJson(res)) throw new WalletError(`${what} at ${url} is not application/json`);
  return asObject(await res.json(), what);
}

/**
 * Sends a request to an OAuth-style endpoint and returns the parsed JSON body of a 2xx answer (or
 * undefined when it has none), or the text of an `application/jwt` one. An error answer becomes an
 * OAuthError with the server's error code.
 */
export async function callEndpoint(
  endpoint: string,
  url: string,
  init: RequestInit,
  http: HttpOptions,
): Promise<{ status: number; body: Record<string, unknown> | undefined; jwt?: string }> {
  const res = await send(url, init, `${endpoint} endpoint`, http);
  const text = await res.text();
  // An encrypted answer (OID4VCI §10): the caller, who holds the key, opens it.
  if (res.ok && isJwt(res)) return { status: res.status, body: undefined, jwt: text.trim() };
  const parsed = text && isJson(res) ? (JSON.parse(text) as unknown) : undefined;
  if (!res.ok) {
    const err = parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
    const bearer = /error="([^"]+)"/.exec(res.headers.get('www-authenticate') ?? '')?.[1];
    const code = typeof err.error === 'string' ? err.error : (bearer ?? `http_${res.status}`);
    const description = typeof err.error_description === 'string' ? err.error_description : undefined;
    throw new OAuthError(endpoint, res.status, code, description);
  }
  if (text && parsed === undefined) throw new WalletError(`${endpoint} endpoint did not answer JSON`);
  return {
    status: res.status,
    body: parsed === undefined ? undefined : asObject(parsed, `${endpoint} response`),
  };
}

export function asObject(value: unknown, what: string): Record<string, unknown> {
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new WalletError(`${what} is not a JSON object`);
  return value as Record<string, unknown>;
}

export function stringField(obj: Record<string, unknown>, key: string, what: string): string {
  const v = obj[key];
  if (typeof v !== 'string' || !v) throw new WalletError(`${what} lacks the string "${key}"`);
  return v;
}
