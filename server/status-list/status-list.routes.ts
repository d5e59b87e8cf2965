import type { EntityManager } from '@mikro-orm/postgresql';
import { type NextFunction, type Request, type Response, Router } from 'express';
import {
  STATUS_LIST_CWT_MEDIA_TYPE,
  STATUS_LIST_JWT_MEDIA_TYPE,
} from '../../contract/status-list/status-list-token.js';
import type { AppContext } from '../app-context.js';
import { notFound } from '../http/problem.js';
import { sendProblem } from '../http/problem-renderer.js';
import { isUuid } from '../persistence/uuid.js';
import { publishLatestStatusList } from './publish-status-list.js';
import { STATUS_LIST_TTL_SECONDS } from './status-list-token.js';

interface StoredToken {
  token: string | null;
  cwt: Buffer | null;
  expires_at: Date | string | null;
}

const readToken = async (em: EntityManager, listId: string) =>
  (
    await em.execute<StoredToken[]>(
      'select token, cwt, expires_at from status_list_token where list_id = ?',
      [listId],
    )
  )[0];

/** Usable: both forms built (a row from before the CWT form existed is rebuilt once) and not expired. */
const usable = (t: StoredToken | undefined, now: number): t is StoredToken & { token: string; cwt: Buffer } =>
  !!t?.token && !!t.cwt && t.expires_at !== null && new Date(t.expires_at).getTime() > now;

/**
 * Token Status List section 8.1: the form the Accept header asks for; the JWT when it names
 * neither or both equally (what every consumer of this service read before the CWT form existed).
 */
const wantsCwt = (req: Request) =>
  req.accepts([STATUS_LIST_JWT_MEDIA_TYPE, STATUS_LIST_CWT_MEDIA_TYPE]) === STATUS_LIST_CWT_MEDIA_TYPE;

/**
 * `GET /status-lists/:id`: the stored Status List Token, public (no credential reveals anything by
 * fetching it) and open to browsers (CORS, cross-origin resource policy). Tokens are built by the
 * status-list worker; a request builds one only when none is usable (a list whose first build has
 * not run yet, or whose token expired because workers were down for half a day), because serving
 * nothing or an expired token would make every verifier reject the credentials.
 */
export function statusListRouter(ctx: Pick<AppContext, 'signer' | 'config'>): Router {
  const router = Router();
  router.get('/:id', async (req: Request, res: Response, next: NextFunction) => {
    try {
      const id = String(req.params.id);
      const missing = () => sendProblem(res, notFound(`status list ${id}`));
      if (!isUuid(id)) return missing();
      let stored = await readToken(req.em, id);
      if (!stored) return missing();
      if (!usable(stored, Date.now())) {
        await publishLatestStatusList(req.em, ctx.signer, ctx.config.issuerUrl, id, { wait: true });
        stored = await readToken(req.em, id);
      }
      const now = Date.now();
      if (!usable(stored, now)) throw new Error(`status list ${id} has no usable token after a build`);
      // Cacheable for ttl from now (the spec counts ttl from the fetch), never past the token's exp.
      const untilExp = Math.floor((new Date(stored.expires_at as Date).getTime() - now) / 1000);
      const maxAge = Math.max(0, Math.min(STATUS_LIST_TTL_SECONDS, untilExp));
      const cwt = wantsCwt(req);
      res.set({
        'Content-Type': cwt ? STATUS_LIST_CWT_MEDIA_TYPE : STATUS_LIST_JWT_MEDIA_TYPE,
        Vary: 'Accept',
        'Cache-Control': `public, max-age=${maxAge}`,
        'Access-Control-Allow-Origin': '*',
        'Cross-Origin-Resource-Policy': 'cross-origin',
      });
      // A Buffer, so that Express adds no charset parameter to the media type.
      res.send(cwt ? stored.cwt : Buffer.from(stored.token));
    } catch (e) {
      next(e);
    }
  });
  return router;
}
