import type { Request, Response } from 'express';
import type { z } from 'zod';
import {
  SCIM_CREDENTIAL_EXTENSION_URN,
  type ScimCredentialState,
  type ScimUser,
} from '../../../contract/scim/scim-user.js';
import { escapeHtml } from '../../http/escape-html.js';
import { consoleOf } from '../console-guard.js';
import { consolePage } from '../console-layout.js';
import { scimPage } from './scim-directory.js';
import { field, queryText, statusBadge } from './view-helpers.js';

/** A SCIM string literal: quotes and backslashes escaped (RFC 7644 filters are JSON strings). */
const scimString = (v: string) => JSON.stringify(v);

/** GET …/users: the tenant's SCIM users (through its SCIM endpoint) with each one's credential state. */
export async function usersPage(req: Request, res: Response, publicUrl: string) {
  const c = consoleOf(res);
  const email = queryText(req.query.email);
  const query = new URLSearchParams({ count: '100', sortBy: 'userName' });
  if (email) query.set('filter', `emails.value eq ${scimString(email)} or userName eq ${scimString(email)}`);
  const list = await scimPage<ScimUser>(c, publicUrl, 'Users', query, 'The directory could not be read.');
  const rows = (list.Resources ?? [])
    .map((u) => {
      const credential: Partial<z.infer<typeof ScimCredentialState>> = u[SCIM_CREDENTIAL_EXTENSION_URN] ?? {};
      const mail = u.emails?.find((e) => e.primary)?.value ?? u.emails?.[0]?.value ?? '';
      return `<tr><td>${escapeHtml(u.userName ?? '')}</td><td>${escapeHtml([u.name?.givenName, u.name?.familyName].filter(Boolean).join(' '))}</td>
<td>${escapeHtml(mail)}</td><td>${u.active === false ? 'inactive' : 'active'}</td><td>${statusBadge(credential.status ?? 'none')}</td>
<td>${escapeHtml(credential.reason ?? '')}</td><td class="mono">${escapeHtml((credential.credentialIds ?? []).join(', '))}</td></tr>`;
    })
    .join('');
  const form = `<form class="filters" method="get" role="search" aria-label="Search users">${field('email', 'E-mail or user name', email)}<button type="submit">Search</button></form>`;
  const table = `<p>${list.totalResults} users${list.totalResults > 100 ? ' (the first 100 shown)' : ''}.</p>
<table><thead><tr><th scope="col">User name</th><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Active</th><th scope="col">Credential</th><th scope="col">Why none</th><th scope="col">Credential ids</th></tr></thead><tbody>${rows || '<tr><td colspan="7">No users match.</td></tr>'}</tbody></table>`;
  res.type('html').send(consolePage({ ...c, path: req.path }, 'SCIM users', form + table));
}
