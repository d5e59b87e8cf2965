import { type Request, type Response, Router } from 'express';
import type { z } from 'zod';
import type { createAdminClient } from '../../clients/integrator/src/index.js';
import { KeyPurpose, Kid, type SigningKeyInfo } from '../../contract/admin/signing-key.js';
import { asyncHandler } from '../http/async-handler.js';
import { formBody } from '../http/body-parsers.js';
import { escapeHtml } from '../http/escape-html.js';
import { ConsolePageError } from './console-errors.js';
import { consolePage, csrfField } from './console-layout.js';
import type { ConsoleSession } from './console-session.js';
import { csrfMatches } from './console-session.js';
import { doneNotice } from './pages/view-helpers.js';

type AdminClient = ReturnType<typeof createAdminClient>;
type Frame = (session: ConsoleSession | null, path: string) => Parameters<typeof consolePage>[0];
const KEYS = '/console/operator/keys';

/** One key's row: an active key gets a CSR form (downloaded as a file) and a chain import form. */
function keyRow(k: z.infer<typeof SigningKeyInfo>, session: ConsoleSession) {
  const active = k.status === 'active';
  const csr = active
    ? `<form class="action" method="post" action="${KEYS}/${k.purpose}/csr">${csrfField(session)}<label for="subject-${k.kid}">Subject (optional)</label><input id="subject-${k.kid}" name="subject" maxlength="500"><button type="submit" aria-label="Download a CSR for ${k.purpose}">Download a CSR</button></form>`
    : '';
  const chain = active
    ? `<form class="action" method="post" action="${KEYS}/${escapeHtml(k.kid)}/chain">${csrfField(session)}<label for="chain-${k.kid}">Chain for ${k.purpose} (PEM, leaf first)</label><textarea id="chain-${k.kid}" name="certificate_chain" rows="3" cols="48" maxlength="65536" required></textarea><button type="submit">Import the chain</button></form>`
    : '';
  return `<tr id="key-${escapeHtml(k.kid)}"><td>${escapeHtml(k.purpose)}</td><td class="mono">${escapeHtml(k.kid)}</td><td class="status status-${escapeHtml(k.status)}">${escapeHtml(k.status)}</td><td class="source">${escapeHtml(k.certificate_source ?? 'none')}</td><td>${csr}${chain}</td></tr>`;
}

/**
 * The operator's signing keys: a certificate signing request for a purpose's active key (a PEM
 * file to give the CA), and the CA's chain imported back, through the admin API (as `keys csr`
 * and `keys import-chain` do). Every form carries the session's CSRF token.
 */
export function operatorKeyRoutes(
  admin: () => AdminClient,
  operatorSession: (req: Request) => Promise<ConsoleSession>,
  frame: Frame,
) {
  const router = Router();
  const checked = async (req: Request) => {
    const session = await operatorSession(req);
    if (!csrfMatches(session, (req.body as { csrf?: unknown } | undefined)?.csrf))
      throw new ConsolePageError(403, 'Refused', 'The form was not sent from this console session.');
    return session;
  };
  router.get(
    '/operator/keys',
    asyncHandler(async (req, res) => {
      const session = await operatorSession(req);
      const answer = await admin().listSigningKeys();
      const rows = (answer.status === 200 ? answer.body.items : []).map((k) => keyRow(k, session)).join('');
      const body = `${doneNotice(req.query.done)}<p>A CA certifies a key from its signing request; its chain imported here becomes the key’s x5c (checked: the key’s own public key, not self-signed, valid now). The CLI does the same: <code>npm run cli -- keys csr</code>, <code>keys import-chain</code>.</p>
<table><thead><tr><th scope="col">Purpose</th><th scope="col">Key id</th><th scope="col">Status</th><th scope="col">Certificate</th><th scope="col">Actions</th></tr></thead><tbody>${rows}</tbody></table>`;
      res.type('html').send(consolePage(frame(session, req.path), 'Keys and certificates', body));
    }),
  );
  router.post(
    '/operator/keys/:purpose/csr',
    formBody('4kb'),
    asyncHandler(async (req: Request, res: Response) => {
      await checked(req);
      const purpose = KeyPurpose.safeParse(req.params.purpose);
      if (!purpose.success) throw new ConsolePageError(404, 'Not found', 'There is no such key purpose.');
      const subject = String((req.body as { subject?: unknown }).subject ?? '').trim();
      const answer = await admin().createCertificateSigningRequest({
        params: { purpose: purpose.data },
        body: subject ? { subject } : {},
      });
      if (answer.status !== 200)
        throw new ConsolePageError(400, 'Not accepted', `No request was made: ${answer.body.detail ?? ''}`);
      res.setHeader('Content-Disposition', `attachment; filename="${purpose.data}-${answer.body.kid}.csr"`);
      res.type('application/pkcs10').send(answer.body.csr);
    }),
  );
  router.post(
    '/operator/keys/:kid/chain',
    formBody('96kb'),
    asyncHandler(async (req: Request, res: Response) => {
      await checked(req);
      const kid = String(req.params.kid);
      if (!Kid.safeParse(kid).success) throw new ConsolePageError(404, 'Not found', 'There is no such key.');
      const chain = String((req.body as { certificate_chain?: unknown }).certificate_chain ?? '').trim();
      const answer = await admin().importCertificateChain({
        params: { kid },
        body: { certificate_chain: chain },
      });
      if (answer.status === 404) throw new ConsolePageError(404, 'Not found', 'There is no such key.');
      if (answer.status !== 200)
        throw new ConsolePageError(400, 'Not accepted', `The chain was refused: ${answer.body.detail ?? ''}`);
      res.redirect(303, `${KEYS}?done=chain-imported`);
    }),
  );
  return router;
}
