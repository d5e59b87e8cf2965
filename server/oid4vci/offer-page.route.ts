import type { Request, Response } from 'express';
import QRCode from 'qrcode';
import { escapeHtml } from '../http/escape-html.js';
import { findOpenOffer } from '../issuance/find-open-offer.js';
import { offerUri } from '../issuance/offer-urls.js';

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
  `<title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,sans-serif;max-width:28rem;margin:2rem auto;text-align:center">` +
  `${body}</body></html>`;

/**
 * The page an e-mailed offer links to: a QR code for a wallet on another device and a link that
 * opens a wallet on this one. The offer itself (with its code) is fetched by the wallet, not shown.
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
    const uri = offerUri(issuerUrl, issuance.id);
    const qr = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    res
      .type('html')
      .send(
        page(
          'Your credential offer',
          `<h1>Your credential offer</h1><p>Scan this code with your wallet:</p><div style="max-width:18rem;margin:auto">${qr}</div>` +
            `<p>On this phone? <a href="${escapeHtml(uri)}">Open the offer in your wallet</a>.</p>` +
            '<p>Your wallet will ask for the activation code we sent you in a separate e-mail.</p>',
        ),
      );
  };
}
