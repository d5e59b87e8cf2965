import { TenantId } from '../../contract/admin/tenant.js';
import type { EntityManagerSource } from '../cache/node-caches.js';
import { brandCss } from '../tenants/branded-page.js';
import { cachedTenant } from '../tenants/tenant-cache.js';

/**
 * The console's one script, served as /console/assets/console.js (the CSP allows scripts from the
 * service's origin only): it shows the pages' UTC times in the reader's own zone. The pages work
 * without it.
 */
export const CONSOLE_JS = `'use strict';
document.querySelectorAll('time[datetime]').forEach(function (t) {
  var d = new Date(t.getAttribute('datetime'));
  if (!isNaN(d.getTime())) { t.setAttribute('title', t.textContent); t.textContent = d.toLocaleString(); }
});
`;

/** The tenant's colour as CSS custom properties (checked as on the offer and login pages). */
export async function tenantBrandCss(em: EntityManagerSource, tenantId: string): Promise<string> {
  const tenant = TenantId.safeParse(tenantId).success ? await cachedTenant(em, tenantId) : undefined;
  const color = tenant?.branding?.primary_color;
  return brandCss({
    tenantName: '',
    credentialName: '',
    logoUri: null,
    primaryColor: color && /^#[0-9a-fA-F]{6}$/.test(color) ? color : null,
  });
}
