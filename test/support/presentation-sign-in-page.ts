import type { DigitalCredentialRequest } from './dc-api-page.js';

/**
 * The issuer's sign-in page of a tenant that asks for a presentation, read as a browser without
 * JavaScript would (its cookie kept): the QR code's request (another device), the same-device
 * link, the DC API requests the page hands to navigator.credentials.get and where it posts their
 * answer, and the completion a browser reaches once the wallet has answered.
 */
export const PRESENTATION_PATH = '/oauth2/authorize/issuance/presentation';

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&quot;': '"',
  '&#39;': "'",
  '&lt;': '<',
  '&gt;': '>',
};
const unescapeHtml = (s: string) => s.replace(/&(amp|quot|#39|lt|gt);/g, (e) => ENTITIES[e] ?? e);

export interface PresentationSignInPage {
  html: string;
  /** The page's cookie, `name=value`: it binds the sign-in to this browser. */
  cookie: string;
  sessionId: string;
  /** What the QR code holds: a wallet on another device answers it (direct_post.jwt, no redirect). */
  qr: string;
  /** The same-device link: the wallet's answer redirects back with a response_code. */
  sameDevice: string;
  /** The requests of one navigator.credentials.get call. */
  dcApiRequests: DigitalCredentialRequest[];
  /** Where the page posts the browser wallet's answer (absolute). */
  dcApiResponseUri: string;
  /** GETs the completion (default: as the page does, `session=…` with the cookie), not following it. */
  complete(query?: string, cookie?: string): Promise<Response>;
  /** GETs an address the verifier sent this browser to (a same-device or DC API redirect), with the cookie. */
  follow(url: string): Promise<Response>;
}

/** Opens the page at `start` (or reads a response that is the page), keeping its cookie. */
export async function openPresentationSignIn(
  baseUrl: string,
  start: string | Response,
): Promise<PresentationSignInPage> {
  const res = typeof start === 'string' ? await fetch(start, { redirect: 'manual' }) : start;
  const html = await res.text();
  if (res.status !== 200) throw new Error(`sign-in page: ${res.status} ${html.slice(0, 300)}`);
  const attr = (re: RegExp) => unescapeHtml(re.exec(html)?.[1] ?? '');
  const cookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const sessionId = attr(/data-session="([^"]+)"/);
  const get = (url: string, withCookie = cookie) =>
    fetch(url, { redirect: 'manual', headers: withCookie ? { cookie: withCookie } : {} });
  return {
    html,
    cookie,
    sessionId,
    qr: attr(/id="qr"[^>]*data-uri="([^"]+)"/),
    sameDevice: attr(/id="same-device"[^>]*href="([^"]+)"/),
    dcApiRequests: JSON.parse(attr(/data-dc-requests="([^"]*)"/) || '[]'),
    dcApiResponseUri: new URL(attr(/data-dc-response="([^"]+)"/), baseUrl).toString(),
    complete: (query = `session=${encodeURIComponent(sessionId)}`, withCookie = cookie) =>
      get(`${baseUrl}${PRESENTATION_PATH}?${query}`, withCookie),
    follow: (url) => get(new URL(url, baseUrl).toString()),
  };
}
