import type { Request, Response } from 'express';
import { TenantBranding } from '../../../contract/admin/tenant-branding.js';
import { qrCodeSvg } from '../../http/qr-code.js';
import { renderOfferPage } from '../../oid4vci/offer-page.route.js';
import { renderLoginPage } from '../../oidc/login-page.js';
import { allowLogo, loadTenantPage, type TenantPage } from '../../tenants/branded-page.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';

// A rendered page of the tenant, framed by the console only, in a sandbox: no script, no form, no
// navigation, its inline style only (the offer and login pages' own look), images from data: and
// the logo's origin (allowLogo).
const PREVIEW_CSP = [
  "default-src 'none'",
  "style-src 'unsafe-inline'",
  'img-src data:',
  "frame-ancestors 'self'",
  "form-action 'none'",
  "base-uri 'none'",
  'sandbox',
].join('; ');

const SAMPLE_OFFER = 'openid-credential-offer://?credential_offer_uri=https%3A%2F%2Fissuer.example%2Fsample';
const SAMPLE_REQUEST =
  'openid4vp://?client_id=x509_hash%3Asample&request_uri=https%3A%2F%2Fverifier.example%2Fsample';

/** The tenant's look, or the one the query asks to try (checked as the admin API checks branding). */
export async function brandOf(req: Request, tenantId: string): Promise<TenantPage> {
  const brand = await loadTenantPage(req.em, tenantId, 'LEARCredentialEmployee');
  const tried = TenantBranding.safeParse({
    ...(typeof req.query.primary_color === 'string' && req.query.primary_color
      ? { primary_color: req.query.primary_color }
      : {}),
    ...(typeof req.query.logo_uri === 'string' && req.query.logo_uri ? { logo_uri: req.query.logo_uri } : {}),
  });
  if (!tried.success) return brand;
  return {
    ...brand,
    primaryColor: tried.data.primary_color ?? brand.primaryColor,
    logoUri: tried.data.logo_uri ?? brand.logoUri,
  };
}

/**
 * GET …/branding/preview/(offer|login): the offer page or the login page as they render for this
 * tenant, with a sample offer or request (nothing real: the links lead nowhere, the page's script
 * is left out), for the branding page's sandboxed frames.
 */
export async function brandingPreview(req: Request, res: Response) {
  const c = consoleOf(res);
  const brand = await brandOf(req, c.tenantId);
  const expiresAt = new Date(Date.now() + 7 * 86_400_000);
  let html: string;
  if (req.params.page === 'offer') html = await renderOfferPage(brand, SAMPLE_OFFER, expiresAt);
  else if (req.params.page === 'login') {
    const svg = await qrCodeSvg(SAMPLE_REQUEST);
    html = renderLoginPage({
      sessionId: 'sample',
      heading: 'Sign in to the sample application',
      lead: `Present your ${brand.credentialName} with your wallet.`,
      returnTo: 'the sample application',
      tenant: brand,
      expiresAt,
      qrCode: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
      authorizationRequestUri: SAMPLE_REQUEST,
      crossDeviceUri: SAMPLE_REQUEST,
      eventsUrl: '',
      dcApiRequests: [],
      dcApiResponseUrl: '',
      completeUrl: '',
      scriptUrl: '',
    });
  } else throw new ConsolePageError(404, 'Not found', 'There is no such preview.');
  res.setHeader('Content-Security-Policy', PREVIEW_CSP);
  allowLogo(res, brand);
  res.type('html').send(html);
}
