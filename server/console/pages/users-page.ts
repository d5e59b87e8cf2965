import type { Request, Response } from 'express';
import { escapeHtml } from '../../http/escape-html.js';
import { ConsolePageError } from '../console-errors.js';
import { consoleOf } from '../console-guard.js';
import { consolePage } from '../console-layout.js';
import { field, queryText, statusBadge } from './view-helpers.js';

const EXTENSION = 'urn:credservice:params:scim:schemas:extension:credential:2.0:User';

interface ScimUser {
  id: string;
  userName: string;
  active?: boolean;
  name?: { givenName?: string; familyName?: string };
  emails?: { value: string; primary?: boolean }[];
  [EXTENSION]?: { status?: string; reason?: string; credentialIds?: string[] };
}

/** A SCIM string literal: quotes and backslashes escaped (RFC 7644 filters are JSON strings). */
const scimString = (v: string) => JSON.stringify(v);

/** GET …/users: the tenant's SCIM users (through its SCIM endpoint) with each one's credential state. */
export async function usersPage(req: Request, res: Response, publicUrl: string) {
  const c = consoleOf(res);
  const email = queryText(req.query.email);
  const query = new URLSearchParams({ count: '100', sortBy: 'userName' });
  if (email) query.set('filter', `emails.value eq ${scimString(email)} or userName eq ${scimString(email)}`);
  const url = `${publicUrl}/tenants/${encodeURIComponent(c.tenantId)}/scim/v2/Users?${query}`;
  const answer = await fetch(url, { headers: { authorization: `Bearer ${c.tenant.scimToken}` } });
  if (answer.status !== 200)
    throw new ConsolePageError(502, 'Not available', 'The directory could not be read.');
  const list = (await answer.json()) as { totalResults: number; Resources?: ScimUser[] };
  const rows = (list.Resources ?? [])
    .map((u) => {
      const credential = u[EXTENSION] ?? {};
      const mail = u.emails?.find((e) => e.primary)?.value ?? u.emails?.[0]?.value ?? '';
      return `<tr><td>${escapeHtml(u.userName)}</td><td>${escapeHtml([u.name?.givenName, u.name?.familyName].filter(Boolean).join(' '))}</td>
<td>${escapeHtml(mail)}</td><td>${u.active === false ? 'inactive' : 'active'}</td><td>${statusBadge(credential.status ?? 'none')}</td>
<td>${escapeHtml(credential.reason ?? '')}</td><td class="mono">${escapeHtml((credential.credentialIds ?? []).join(', '))}</td></tr>`;
    })
    .join('');
  const form = `<form class="filters" method="get" role="search" aria-label="Search users">${field('email', 'E-mail or user name', email)}<button type="submit">Search</button></form>`;
  const table = `<p>${list.totalResults} users${list.totalResults > 100 ? ' (the first 100 shown)' : ''}.</p>
<table><thead><tr><th scope="col">User name</th><th scope="col">Name</th><th scope="col">E-mail</th><th scope="col">Active</th><th scope="col">Credential</th><th scope="col">Why none</th><th scope="col">Credential ids</th></tr></thead><tbody>${rows || '<tr><td colspan="7">No users match.</td></tr>'}</tbody></table>`;
  res.type('html').send(consolePage({ ...c, path: req.path }, 'SCIM users', form + table));
}
