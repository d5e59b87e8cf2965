import type { Request, Response } from 'express';
import { escapeHtml } from '../http/escape-html.js';
import { qrCodeSvg } from '../http/qr-code.js';
import { findOpenOffer } from '../issuance/find-open-offer.js';
import { offerUri } from '../issuance/offer-urls.js';
import {
  allowLogo,
  brandedPage,
  expiryHtml,
  loadTenantPage,
  type TenantPage,
} from '../tenants/branded-page.js';

// The offer page's own rules after the shared look (brandedPage): a wider card, the QR code, the
// same-device button. Inline styles only; the page has no script at all.
const STYLE = `
main { max-width: 28rem; margin: 2rem auto; }
.qr { max-width: 18rem; margin: auto; }
a.button { display: inline-block; padding: .6rem 1.2rem; border-radius: 8px; background: var(--brand);
           color: var(--on-brand); text-decoration: none; }`;

const page = (title: string, body: string, brand?: TenantPage) =>
  brandedPage(title, `<main>${body}</main>`, { style: STYLE, ...(brand ? { brand } : {}) });

/** The offer page of `uri` in the tenant's look (also the console's branding preview, with a sample). */
export async function renderOfferPage(brand: TenantPage, uri: string, expiresAt: Date): Promise<string> {
  const e = escapeHtml;
  return page(
    `${brand.credentialName} from ${brand.tenantName}`,
    `<h1>Your ${e(brand.credentialName)}</h1>` +
      `<p>from ${e(brand.tenantName)}</p><p>Scan this code with your wallet:</p>` +
      `<div class="qr">${await qrCodeSvg(uri)}</div>` +
      `<p>On this phone? <a class="button" href="${e(uri)}">Open the offer in your wallet</a></p>` +
      '<p>Your wallet will ask for the activation code we sent you in a separate e-mail.</p>' +
      `<p class="expiry">This offer expires on ${expiryHtml(expiresAt)}.</p>`,
    brand,
  );
}

/**
 * The page an e-mailed offer links to: who offers which credential until when, a QR code for a
 * wallet on another device and a link that opens a wallet on this one, in the tenant's colours.
 * The offer itself (with its code) is fetched by the wallet, not shown.
 */
export function offerPageRoute(issuerUrl: string) {
  return async (req: Request, res: Response) => {
    res.setHeader('Cache-Control', 'no-store');
    const issuance = await findOpenOffer(req.em, String(req.params.offerId));
    if (!issuance) {
      res
        .status(404)
        .type('html')
        .send(
          page(
            'Offer not available',
            '<h1>This offer is no longer available</h1><p>It was used, or it has expired. Ask for a new one.</p>',
          ),
        );
      return;
    }
    const brand = await loadTenantPage(req.em, issuance.tenantId, issuance.configurationId);
    const uri = offerUri(issuerUrl, issuance.id, issuance.offerUriScheme);
    allowLogo(res, brand);
    res.type('html').send(await renderOfferPage(brand, uri, issuance.expiresAt));
  };
}
