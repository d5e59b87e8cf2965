import { initServer } from '@ts-rest/express';
import { consoleContract } from '../../contract/admin/console-contract.js';
import type { Config } from '../config.js';
import type { TtlStore } from '../ephemeral/ttl-store.js';
import { adminActor } from '../http/admin-guard.js';
import { consoleSettingsView, getConsoleSettings, putConsoleSettings } from './console-settings.js';
import { mintOperatorLink } from './operator-links.js';

const s = initServer();

/** The admin API's console routes: a tenant's console settings and the operator's sign-in link. */
export function adminConsoleRoutes(config: Pick<Config, 'publicUrl'>, ttl: TtlStore) {
  return s.router(consoleContract, {
    getConsoleSettings: async ({ params, req }) => ({
      status: 200,
      body: consoleSettingsView(config.publicUrl, await getConsoleSettings(req.em, params.id)),
    }),
    putConsoleSettings: async ({ params, body, req }) => ({
      status: 200,
      body: consoleSettingsView(
        config.publicUrl,
        await putConsoleSettings(req.em, params.id, body, adminActor(req)),
      ),
    }),
    createConsoleLink: async () => {
      const link = await mintOperatorLink(ttl, config.publicUrl);
      return { status: 201, body: { url: link.url, expires_at: link.expiresAt.toISOString() } };
    },
  });
}
