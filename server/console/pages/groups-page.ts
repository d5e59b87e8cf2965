import type { Request, Response } from 'express';
import type { ScimGroup } from '../../../contract/scim/scim-group.js';
import { escapeHtml } from '../../http/escape-html.js';
import { consoleOf } from '../console-guard.js';
import { consolePage } from '../console-layout.js';
import { scimPage } from './scim-directory.js';

const SHOWN = 100;

/**
 * GET …/groups: the tenant's SCIM groups with their members, read through its SCIM endpoint with
 * the session's SCIM token. Read-only: groups are the directory's (Entra ID, Okta…) to change.
 */
export async function groupsPage(req: Request, res: Response, publicUrl: string) {
  const c = consoleOf(res);
  const query = new URLSearchParams({ count: String(SHOWN), sortBy: 'displayName' });
  const unreadable = 'The directory’s groups could not be read.';
  const list = await scimPage<ScimGroup>(c, publicUrl, 'Groups', query, unreadable);
  const groups = (list.Resources ?? [])
    .map((g) => {
      const members = (g.members ?? [])
        .map(
          (m) =>
            `<li>${escapeHtml(m.display ?? m.value)} <span class="mono">${escapeHtml(m.value)}</span>${m.type === 'Group' ? ' (group)' : ''}</li>`,
        )
        .join('');
      const name = g.displayName ?? g.id;
      return `<section class="group" id="group-${escapeHtml(g.id)}" aria-label="${escapeHtml(name)}"><h2>${escapeHtml(name)}</h2>
<p>${(g.members ?? []).length} members${g.externalId ? `; external id <span class="mono">${escapeHtml(g.externalId)}</span>` : ''}</p>
${members ? `<ul class="members">${members}</ul>` : ''}</section>`;
    })
    .join('');
  const count = `<p>${list.totalResults} groups${list.totalResults > SHOWN ? ` (the first ${SHOWN} shown)` : ''}. Groups are changed in the directory that provisions them, not here.</p>`;
  res
    .type('html')
    .send(consolePage({ ...c, path: req.path }, 'SCIM groups', count + (groups || '<p>No groups.</p>')));
}
