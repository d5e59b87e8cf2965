import { escapeHtml } from '../../server/http/escape-html.js';
/**
 * Mail templates: each renders a subject, a plain-text body and an HTML body from its parameters.
 * Parameters are escaped in HTML; no template puts more than one secret in one message.
 */
export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

type Template = (p: Record<string, string>) => RenderedMail;

const layout = (title: string, body: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
  `<body style="font-family:system-ui,sans-serif;max-width:36rem;margin:2rem auto;line-height:1.5">${body}</body></html>`;

function need<K extends string>(p: Record<string, string>, ...keys: K[]): Record<K, string> {
  for (const k of keys) if (p[k] === undefined) throw new Error(`mail template parameter ${k} is missing`);
  return p as Record<K, string>;
}

export const templates: Record<string, Template> = {
  'credential-offer': (p) => {
    const { organization, offerPage } = need(p, 'organization', 'offerPage');
    const subject = `Your credential from ${organization}`;
    // The wallet link itself (openid-credential-offer:// or haip-vci://) for a phone that has the
    // wallet: mail older than this parameter has only the page.
    const direct = p.offerUri;
    return {
      subject,
      text: `${organization} has issued you a credential.\n\nOpen this page on your phone, or scan its QR code with your wallet:\n${offerPage}\n${direct ? `\nOr open the offer in the wallet on this phone:\n${direct}\n` : ''}\nYou will be asked for an activation code, which we send in a separate message.\n`,
      html: layout(
        subject,
        `<p>${escapeHtml(organization)} has issued you a credential.</p><p><a href="${escapeHtml(offerPage)}">Open your credential offer</a> on your phone, or scan its QR code with your wallet.</p>${direct ? `<p>Or <a href="${escapeHtml(direct)}">open it in the wallet on this phone</a>.</p>` : ''}<p>You will be asked for an activation code, which we send in a separate message.</p>`,
      ),
    };
  },
  'tx-code': (p) => {
    const { organization, txCode } = need(p, 'organization', 'txCode');
    const subject = `Your activation code from ${organization}`;
    return {
      subject,
      text: `Your activation code is: ${txCode}\n\nEnter it in your wallet when it asks. It works once. If you did not expect this message, ignore it.\n`,
      html: layout(
        subject,
        `<p>Your activation code is:</p><p style="font-size:2rem;letter-spacing:.3rem"><strong>${escapeHtml(txCode)}</strong></p><p>Enter it in your wallet when it asks. It works once. If you did not expect this message, ignore it.</p>`,
      ),
    };
  },
  notice: (p) => {
    const { subject, message } = need(p, 'subject', 'message');
    return { subject, text: `${message}\n`, html: layout(subject, `<p>${escapeHtml(message)}</p>`) };
  },
};

export function renderMail(template: string, params: Record<string, string>): RenderedMail {
  const t = templates[template];
  if (!t) throw new Error(`unknown mail template ${template}`);
  return t(params);
}
